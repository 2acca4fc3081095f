package dev.tollgate.guard;

import java.util.concurrent.Callable;

/**
 * Runs a Redis call on a worker within the budget, behind a circuit breaker: {@link ExecutorCaller}.
 */
public interface BoundedCaller extends AutoCloseable {

    /** The call's result; throws what it threw, or a timeout, or a refusal when the breaker is open. */
    <T> T call(Callable<T> call) throws Exception;

    /** Whether {@code failure} says the breaker is open, rather than that the call failed. */
    boolean isBreakerOpen(Throwable failure);

    @Override
    void close();
}
