package dev.tollgate;

import java.time.Duration;

/**
 * The answer to one {@link ConcurrencyLimits#tryEnter}: admitted or not; when admitted, the slot is
 * this call's until {@link #close()}, which frees it. Closing is idempotent and never throws.
 *
 * <pre>{@code
 * try (Permit p = limits.tryEnter("reports", customerId)) {
 *     if (!p.admitted()) { ... }       // or limits.enter(...), which throws
 *     ...
 * }
 * }</pre>
 */
public interface Permit extends AutoCloseable {

    /** Whether the call may run. */
    boolean admitted();

    /** Whether the store could not be asked, and this is the limit's degraded decision. */
    boolean degraded();

    /** The limit's name. */
    String limit();

    /** How many of the limit's slots were taken after this decision (0 when degraded). */
    long inFlight();

    /**
     * When a refused call might find a free slot: Tollgate cannot know when running calls end, so
     * this is a hint (one second); {@link Duration#ZERO} when admitted.
     */
    Duration retryAfter();

    /** Frees the slot (and stops renewing its lease). */
    @Override
    void close();
}
