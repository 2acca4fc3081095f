package dev.tollgate;

import java.time.Duration;

/**
 * A policy an operator puts on one client of a limit for a while ({@link RateLimitAdmin#override}): it
 * replaces the limit's capacity, refill and period for that client, and beats the client's plan. What a
 * call costs stays the call's. Stored in Redis beside the client's bucket, so every server applies it.
 *
 * @param capacity a token bucket's size, or a window's calls per window; 1..{@link LimitPolicy#MAX_COUNT}
 *     (a sliding window: at most 10,000)
 * @param refillTokens a token bucket's tokens per {@code refillPeriod}, 0..{@link LimitPolicy#MAX_COUNT}
 *     (0: a quota for as long as the override lasts); a window's must equal {@code capacity}
 * @param refillPeriod a token bucket's refill period, or a window's length; 1 ms..{@link
 *     LimitPolicy#MAX_PERIOD}
 */
public record ClientOverride(long capacity, long refillTokens, Duration refillPeriod) {

    public ClientOverride {
        if (refillPeriod == null) {
            throw new IllegalArgumentException("refillPeriod must not be null");
        }
        java.util.List<ConfigProblem> problems =
                LimitRules.check(null, capacity, refillTokens, refillPeriod, null, null);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    String.join("; ", problems.stream().map(p -> p.describe("")).toList()));
        }
    }

    /** A token bucket of {@code capacity} that gains {@code tokens} every {@code period}. */
    public static ClientOverride tokenBucket(long capacity, long tokens, Duration period) {
        return new ClientOverride(capacity, tokens, period);
    }

    /** A fixed or sliding window of {@code limit} calls per {@code window}. */
    public static ClientOverride window(long limit, Duration window) {
        return new ClientOverride(limit, limit, window);
    }

    /** {@code refillPeriod} in whole microseconds (at least 1), as the stores count time. */
    public long refillPeriodMicros() {
        return Math.max(1, refillPeriod.toNanos() / 1000);
    }
}
