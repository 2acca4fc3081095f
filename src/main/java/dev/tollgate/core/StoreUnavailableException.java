package dev.tollgate.core;

/**
 * The store could not be asked or did not answer in time (a timeout, a refused connection, an open
 * circuit breaker): a limit makes its degraded decision, a lock is unavailable, a counter call fails.
 * The JAX-RS adapter answers it with {@code 503 Service Unavailable} and {@code Retry-After}.
 */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    private StoreUnavailableException(String message) {
        super(message, null, false, false);
    }

    /** Without a cause or a stack trace: for the answer given over and over while a breaker is open. */
    public static StoreUnavailableException withoutTrace(String message) {
        return new StoreUnavailableException(message);
    }
}
