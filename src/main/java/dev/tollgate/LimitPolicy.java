package dev.tollgate;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * One named limit: a token bucket of {@code capacity} tokens that gains {@code refillTokens} every
 * {@code refillPeriod}, of which each call spends {@code cost}.
 *
 * <p>Every value is checked when the policy is built, so a policy that can never admit a call (a
 * cost above the capacity) or that would divide by zero never reaches a store.
 *
 * @param name the limit's name, used in keys, headers, metrics and logs: letters, digits, {@code _ -}, at most 64 characters
 * @param capacity the bucket size, the most calls that can pass in a burst; &gt; 0
 * @param refillTokens tokens added per {@code refillPeriod}; &ge; 0 (0: the bucket never refills, a
 *     fixed quota)
 * @param refillPeriod the period over which {@code refillTokens} are added; &gt; 0, at least 1 ms
 * @param cost tokens one call spends; 1..capacity
 */
public record LimitPolicy(String name, long capacity, long refillTokens, Duration refillPeriod, long cost) {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public LimitPolicy {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must be 1-64 letters, digits, '_' or '-', but was '" + name + "'");
        }
        require(capacity > 0, name, "capacity", capacity, "> 0");
        require(refillTokens >= 0, name, "refillTokens", refillTokens, ">= 0");
        if (refillPeriod == null || refillPeriod.toMillis() < 1) {
            throw new IllegalArgumentException(
                    "limit '" + name + "': refillPeriod must be at least 1ms, but was " + refillPeriod);
        }
        require(cost >= 1, name, "cost", cost, ">= 1");
        if (cost > capacity) {
            throw new IllegalArgumentException("limit '" + name + "': cost must be <= capacity (" + capacity
                    + "), but was " + cost + ": a call costing more than the bucket holds could never pass");
        }
    }

    /** A bucket of {@code capacity} that refills {@code tokens} every {@code period}; each call costs 1. */
    public static LimitPolicy of(String name, long capacity, long tokens, Duration period) {
        return new LimitPolicy(name, capacity, tokens, period, 1);
    }

    /** A fixed quota of {@code capacity} calls that never refills. */
    public static LimitPolicy quota(String name, long capacity) {
        return new LimitPolicy(name, capacity, 0, Duration.ofSeconds(1), 1);
    }

    /** This policy with another cost per call. */
    public LimitPolicy withCost(long newCost) {
        return new LimitPolicy(name, capacity, refillTokens, refillPeriod, newCost);
    }

    /** Whether spent tokens ever come back. */
    public boolean refills() {
        return refillTokens > 0;
    }

    /** The period over which a full bucket is refilled from empty, rounded up to whole seconds; 0 if it never refills. */
    public long windowSeconds() {
        if (!refills()) {
            return 0;
        }
        long micros = Math.multiplyExact(capacity, refillPeriod.toNanos() / 1000) / refillTokens;
        return (micros + 999_999) / 1_000_000;
    }

    private static void require(boolean ok, String name, String field, long value, String rule) {
        if (!ok) {
            throw new IllegalArgumentException(
                    "limit '" + name + "': " + field + " must be " + rule + ", but was " + value);
        }
    }
}
