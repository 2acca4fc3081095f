package dev.tollgate.core;

/**
 * The store could not be asked or did not answer in time (a timeout, a refused connection, an open
 * circuit breaker): a limit makes its degraded decision, a lock is unavailable, a counter call fails.
 * The JAX-RS adapter answers it with {@code 503 Service Unavailable} and {@code Retry-After}.
 */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean attempted;

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
        this.attempted = true;
    }

    private StoreUnavailableException(String message) {
        super(message, null, false, false);
        this.attempted = false;
    }

    /**
     * A call that was not attempted (the breaker is open), without a stack trace: the answer given over
     * and over while a breaker is open.
     */
    public static StoreUnavailableException notAttempted(String message) {
        return new StoreUnavailableException(message);
    }

    /** Whether the call was tried and failed, rather than refused by an open breaker; false if any cause was refused. */
    public boolean attempted() {
        for (Throwable t = this; t != null; t = t.getCause()) {
            if (t instanceof StoreUnavailableException s && !s.attempted) {
                return false;
            }
        }
        return true;
    }
}
