package dev.tollgate;

import jakarta.ejb.ApplicationException;
import java.time.Duration;

/**
 * Thrown when a {@link ConcurrencyLimited} call finds every slot of its limit taken (or the store cannot
 * be asked and the limit fails closed). A JAX-RS exception mapper turns it into {@code 429} with {@code
 * Retry-After} ({@code 503} when degraded).
 *
 * <p>An EJB application exception: it reaches the caller as it is and does not mark the caller's
 * transaction for rollback, since the method never ran.
 */
@ApplicationException(rollback = false)
public class ConcurrencyLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String limitName;
    private final transient Duration retryAfter;
    private final boolean degraded;

    public ConcurrencyLimitExceededException(Permit refused) {
        super(
                refused.degraded()
                        ? "concurrency limit '" + refused.limit() + "' cannot be checked now and fails closed"
                        : "concurrency limit '" + refused.limit() + "' is full (" + refused.inFlight()
                                + " calls in flight); retry after "
                                + refused.retryAfter().toMillis() + " ms");
        this.limitName = refused.limit();
        this.retryAfter = refused.retryAfter();
        this.degraded = refused.degraded();
    }

    /** The concurrency limit that refused the call. */
    public String limitName() {
        return limitName;
    }

    /** A hint of when a slot may be free. */
    public Duration retryAfter() {
        return retryAfter;
    }

    /** Whether the store could not be asked and the limit fails closed. */
    public boolean degraded() {
        return degraded;
    }
}
