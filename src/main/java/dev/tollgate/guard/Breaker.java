package dev.tollgate.guard;

import dev.tollgate.cdi.MicroProfileBreaker;
import java.util.concurrent.Callable;

/**
 * A circuit breaker around one Redis call, run on a worker thread of {@link ExecutorCaller}: {@link
 * MicroProfileBreaker} (MicroProfile Fault Tolerance) in a server, {@link CircuitBreaker} elsewhere.
 */
public interface Breaker {

    /** Runs {@code call} if the breaker lets it, recording its outcome. */
    <T> T call(Callable<T> call) throws Exception;

    /** Whether {@code failure} means the breaker refused the call. */
    boolean isOpenFailure(Throwable failure);
}
