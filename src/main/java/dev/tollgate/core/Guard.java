package dev.tollgate.core;

import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * What stands between a decision and the store: a budget, a circuit breaker. Empty means the store
 * could not be asked in time, and the caller makes the degraded decision.
 */
@FunctionalInterface
public interface Guard {

    /** Runs {@code call}; empty when it failed, timed out or was not attempted. Never throws for the store. */
    <T> Optional<T> call(Callable<T> call);

    /**
     * Runs {@code call}, which touches {@code storeKey}: a guard over several servers (a Redis
     * Cluster's masters) breaks per server, so one that is down does not stop the others' decisions.
     */
    default <T> Optional<T> call(String storeKey, Callable<T> call) {
        return call(call);
    }

    /** No guard: for stores in this JVM, which cannot hang. */
    Guard DIRECT = new Guard() {
        @Override
        public <T> Optional<T> call(Callable<T> call) {
            try {
                return Optional.ofNullable(call.call());
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    };
}
