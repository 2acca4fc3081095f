package dev.tollgate;

/**
 * The store could not be asked or did not answer in time (a timeout, a refused connection, an open
 * circuit breaker, a full pool, an error Redis gave this call): a limit makes its degraded decision, a
 * lock is unavailable, a counter call fails. {@link #degradedCause()} says which. The JAX-RS adapter
 * answers it with {@code 503 Service Unavailable} and {@code Retry-After}.
 */
public class StoreUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final boolean attempted;
    private final DegradedCause degradedCause;

    /** A failed call, cause not yet known ({@link DegradedCause#REFUSED} unless a guard says otherwise). */
    public StoreUnavailableException(String message, Throwable cause) {
        this(message, cause, DegradedCause.REFUSED);
    }

    /** A failed call, for {@code degradedCause}. */
    public StoreUnavailableException(String message, Throwable cause, DegradedCause degradedCause) {
        super(message, cause);
        this.attempted = true;
        this.degradedCause = degradedCause;
    }

    private StoreUnavailableException(String message, DegradedCause degradedCause) {
        super(message, null, false, false);
        this.attempted = false;
        this.degradedCause = degradedCause;
    }

    /**
     * A call that was not attempted (the breaker is open), without a stack trace: the answer given over
     * and over while a breaker is open.
     */
    public static StoreUnavailableException notAttempted(String message) {
        return new StoreUnavailableException(message, DegradedCause.BREAKER_OPEN);
    }

    /** A call that was not attempted for {@code degradedCause} (no worker freed up in time), without a stack trace. */
    public static StoreUnavailableException notAttempted(String message, DegradedCause degradedCause) {
        return new StoreUnavailableException(message, degradedCause);
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

    /** Why the call was not answered: the {@code cause} tag of the degraded decision it led to. */
    public DegradedCause degradedCause() {
        return degradedCause;
    }
}
