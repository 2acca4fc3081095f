package dev.tollgate.internal.guard;

/** {@link ExecutorCaller}'s breaker is open: the call was not attempted. */
public final class BreakerOpenException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BreakerOpenException() {
        super("circuit breaker open", null, false, false);
    }
}
