package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * One client key's lease on this server ({@link Leases}): the tokens left of it, until when they may be
 * spent, what the bucket held when they were taken, and the key's recent demand, which sizes the next
 * lease. Guarded by its own monitor: every method is called holding it.
 */
final class LocalLease {

    /** The limit and the policy the tokens were leased under; null when none are held. */
    LimitSpec limit;

    LimitPolicy policy;

    /** Tokens of the lease left to spend here. */
    long tokens;

    /** When the lease ends ({@code nanoTime}): no token of it is spent from then on. */
    private long endsAt;

    private long leaseNanos;

    private long takenAt;
    private long bucketLeft;
    private long fullInMicros;

    private boolean counted;
    private long windowStart;
    private long demandNow;
    private long demandBefore;

    /**
     * Whether Redis has this server's lease of the bucket among its leases out: from a lease taken until
     * a script gives it back (or denies, which strikes it out too); a lease spent to its last token is
     * still there until then.
     */
    boolean recorded;

    /** Set once the lease is dropped from the map: a caller that still holds it asks again. */
    boolean retired;

    /** Counts a call's {@code cost} as demand, in windows of one lease time. */
    void demand(long now, long newLeaseNanos, long cost) {
        leaseNanos = newLeaseNanos;
        if (!counted) {
            counted = true;
            windowStart = now;
        } else if (now - windowStart >= newLeaseNanos) {
            demandBefore = now - windowStart >= 2 * newLeaseNanos ? 0 : demandNow;
            demandNow = 0;
            windowStart = now;
        }
        demandNow += cost;
    }

    /** Whether no call asked for the key in the last two lease times. */
    boolean idle(long now) {
        return now - windowStart >= 2 * leaseNanos;
    }

    /** The size of the next lease: the key's demand over the last lease time, at least {@code cost}. */
    long want(long cost) {
        return Math.max(cost, Math.max(demandNow, demandBefore));
    }

    /** Whether the lease still runs at {@code now}. */
    boolean running(long now) {
        return policy != null && now - endsAt < 0;
    }

    /** Spends {@code cost} from the lease if it runs, is of the bucket of {@code p} and holds enough. */
    boolean spend(LimitPolicy p, long cost, long now) {
        if (!running(now) || !sameBucket(p) || tokens < cost) {
            return false;
        }
        tokens -= cost;
        return true;
    }

    /** Gives {@code cost} back to a running lease of the bucket of {@code p}; false when there is none. */
    boolean giveBack(LimitPolicy p, long cost, long now) {
        if (retired || !running(now) || !sameBucket(p)) {
            return false;
        }
        tokens += cost;
        return true;
    }

    /** Ends the lease: the tokens left, which the caller gives back to the bucket. */
    long end() {
        long left = tokens;
        tokens = 0;
        policy = null;
        limit = null;
        return left;
    }

    /** A new lease of {@code granted}, of which the call that took it spent {@code cost}, running from {@code sent}. */
    void start(LimitSpec spec, LimitPolicy p, Granted granted, long cost, long sent, long newLeaseNanos) {
        limit = spec;
        policy = p;
        leaseNanos = newLeaseNanos;
        tokens = granted.tokens() - cost;
        takenAt = sent;
        endsAt = sent + newLeaseNanos;
        bucketLeft = granted.decision().remaining();
        Duration full = granted.decision().resetAfter();
        fullInMicros = full.equals(Decision.NEVER) ? -1 : full.toNanos() / 1000;
    }

    /**
     * An allowed call's decision from the lease: remaining is what the bucket held after the lease was
     * taken plus what this server still holds of it (what the client may still spend, less what other
     * servers spent since); the reset counts from the lease.
     */
    Decision decision(long now) {
        long reset = fullInMicros < 0 ? -1 : Math.max(0, fullInMicros - (now - takenAt) / 1000);
        return new Decision(
                true,
                bucketLeft + tokens,
                Duration.ZERO,
                reset < 0 ? Decision.NEVER : Duration.of(reset, ChronoUnit.MICROS),
                false);
    }

    private boolean sameBucket(LimitPolicy p) {
        return policy != null
                && policy.capacity() == p.capacity()
                && policy.refillTokens() == p.refillTokens()
                && policy.refillPeriod().equals(p.refillPeriod());
    }
}
