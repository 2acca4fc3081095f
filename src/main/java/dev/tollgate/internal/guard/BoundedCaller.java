package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;
import java.util.concurrent.Callable;

/**
 * Runs a Redis call on a worker within the budget, behind a circuit breaker: {@link ExecutorCaller}.
 */
public interface BoundedCaller extends AutoCloseable {

    /**
     * The call's result; throws what it threw ({@link NotAnOutageException} for an error that is not an
     * outage), or a timeout, or a refusal when the breaker is open or no worker freed up in time.
     */
    <T> T call(Callable<T> call) throws Exception;

    /** Why {@link #call} failed with {@code failure}. */
    DegradedCause causeOf(Throwable failure);

    /** Whether {@code failure} says the breaker is open, rather than that the call failed. */
    default boolean isBreakerOpen(Throwable failure) {
        return causeOf(failure) == DegradedCause.BREAKER_OPEN;
    }

    @Override
    void close();
}
