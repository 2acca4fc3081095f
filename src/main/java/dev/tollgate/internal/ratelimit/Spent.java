package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;

/**
 * A decision, and what a store needs to give an allowed call's tokens back ({@link RateLimitStore#refund}).
 *
 * @param decision the store's answer
 * @param mark which spend this was: a fixed window's end, a sliding window's stamp (µs), 0 for a token
 *     bucket (whose tokens are interchangeable)
 * @param replayed whether this answers a repeat of an admitted call (its idempotency key's record): the
 *     first attempt's decision again, nothing spent
 */
public record Spent(Decision decision, long mark, boolean replayed) {

    public Spent {
        if (decision == null) {
            throw new IllegalArgumentException("decision is required");
        }
    }

    /** A spend that is no repeat. */
    public Spent(Decision decision, long mark) {
        this(decision, mark, false);
    }
}
