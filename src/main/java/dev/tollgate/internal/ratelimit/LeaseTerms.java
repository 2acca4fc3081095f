package dev.tollgate.internal.ratelimit;

import java.time.Duration;

/**
 * What a server asks of a bucket when it leases ({@link RateLimitStore#lease}).
 *
 * @param want the tokens asked for, at least the call's cost; 0 only gives {@code returned} back
 * @param share a lease takes at most the capacity and the tokens held divided by it
 * @param returned the tokens left of this server's last lease of the bucket, given back first
 * @param holder this server's id among the bucket's leases out
 * @param abandonedAfter how long after it is taken a lease this server never ends counts as abandoned
 */
public record LeaseTerms(long want, long share, long returned, String holder, Duration abandonedAfter) {

    public LeaseTerms {
        if (want < 0 || share < 1 || returned < 0) {
            throw new IllegalArgumentException(
                    "want >= 0, share >= 1, returned >= 0, but " + want + ", " + share + ", " + returned);
        }
        if (holder == null || holder.isEmpty() || holder.length() > 100) {
            throw new IllegalArgumentException("holder: 1 to 100 characters, but " + holder);
        }
        if (abandonedAfter == null || abandonedAfter.toNanos() < 1000) {
            throw new IllegalArgumentException("abandonedAfter: at least 1 us, but " + abandonedAfter);
        }
    }

    /** Only gives {@code returned} tokens back, leasing none. */
    static LeaseTerms givingBack(long returned, String holder, Duration abandonedAfter) {
        return new LeaseTerms(0, 1, returned, holder, abandonedAfter);
    }
}
