package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import java.time.Duration;

/**
 * One limit's part of an admission: its charge and decision, and whether tokens were taken (or
 * reserved) that a refund can give back.
 *
 * @param charge the limit, policy, bucket and cost
 * @param decision the store's (or the degraded) decision
 * @param mark what the store needs to give it back ({@link Spent#mark()})
 * @param delay how long the call waits for reserved tokens; zero unless it waits
 * @param spent whether tokens were taken from the shared store (or reserved), which a refund gives back;
 *     never for a degraded decision, a held denial or a denial
 * @param cause why the decision is degraded; null when the store decided
 * @param replay the key of the call's idempotency record, which a refund deletes; null without one
 * @param replayed whether the store answered a repeat of an admitted call (nothing spent)
 */
public record Charged(
        Charge charge,
        Decision decision,
        long mark,
        Duration delay,
        boolean spent,
        DegradedCause cause,
        String replay,
        boolean replayed) {

    /** A part that is no repeat. */
    public Charged(Charge charge, Decision decision, long mark, Duration delay, boolean spent, DegradedCause cause) {
        this(charge, decision, mark, delay, spent, cause, null, false);
    }

    /** A part the store decided (or that never asked it). */
    public Charged(Charge charge, Decision decision, long mark, Duration delay, boolean spent) {
        this(charge, decision, mark, delay, spent, null);
    }
}
