package dev.tollgate.internal.core;

import dev.tollgate.StoreUnavailableException;
import java.util.concurrent.Callable;

/**
 * What stands between a caller and the store: a budget, a circuit breaker. Every Redis call of a
 * limit, a counter or a lock goes through one, so an outage costs each of them the same way.
 */
@FunctionalInterface
public interface Guard {

    /**
     * Runs {@code call}, which touches {@code storeKey}: a guard over several servers (a Redis Cluster's
     * masters) breaks per server, so one that is down does not stop the others' calls.
     *
     * @throws StoreUnavailableException when the store could not be asked in time (a timeout, a refused
     *     connection, an open breaker: the cause says which); the caller makes its degraded decision
     */
    <T> T call(String storeKey, Callable<T> call);

    /** No guard: for stores in this JVM, which cannot hang, and for tests of a store alone. */
    Guard DIRECT = new Guard() {
        @Override
        public <T> T call(String storeKey, Callable<T> call) {
            try {
                return call.call();
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new StoreUnavailableException("the store call failed", e);
            }
        }
    };
}
