package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;
import java.util.Locale;

/**
 * How a limit counts, as configured in {@code tollgate.limits.<name>.algorithm}, and what its script
 * takes: the largest capacity and the largest cost of one call ({@link #largestCapacity()}, {@link
 * #largestCost()}). These are the one statement of those rules: a limit is checked against them when
 * it is built ({@link LimitSpec}), and every call before its store is asked ({@link Charge#neverPasses()}).
 * The scripts check the same numbers again only to detect a bug ({@code sliding-window.lua}; their
 * refusal is {@link ArgumentsRefusedException}), and {@code ScriptLimitsAgreementTest} proves they agree.
 */
public enum Algorithm {
    /** {@code capacity} tokens, {@code refill-tokens} back every {@code refill-period}: bursts, then a steady rate. */
    TOKEN_BUCKET("tk", LimitPolicy.MAX_COUNT, LimitPolicy.MAX_COUNT),
    /** {@code capacity} calls per {@code refill-period}, counted per calendar window: cheap, lets 2x through at a boundary. */
    FIXED_WINDOW("fw", LimitPolicy.MAX_COUNT, LimitPolicy.MAX_COUNT),
    /**
     * {@code capacity} calls in any {@code refill-period}: exact, costs memory per admitted call. At most
     * 10,000: the log keeps one entry (about 127 bytes in Redis) per admitted call for a whole window, 1.3
     * MB per client key at 10,000, and one call may trim that many entries that left the window (under 2
     * ms of Redis). One call costs at most 1,000: it adds one entry per unit, and Redis runs nothing else
     * meanwhile (1,000 entries: about 2 ms; 10,000 took 40-80 ms on this project's machines).
     */
    SLIDING_WINDOW("sw", 10_000, 1_000);

    private final String keyCode;
    private final long largestCapacity;
    private final long largestCost;

    Algorithm(String keyCode, long largestCapacity, long largestCost) {
        this.keyCode = keyCode;
        this.largestCapacity = largestCapacity;
        this.largestCost = largestCost;
    }

    /** The largest capacity a limit of this algorithm may have: 10,000 for a sliding window, else 2^53. */
    public long largestCapacity() {
        return largestCapacity;
    }

    /**
     * The most one call may cost under this algorithm, whatever the capacity: 1,000 for a sliding window,
     * else 2^53 (a call never costs more than the capacity in force either: {@link #largestCost(LimitPolicy)}).
     */
    public long largestCost() {
        return largestCost;
    }

    /** The most one call may cost under {@code policy}: its capacity, at most {@link #largestCost()}. */
    public long largestCost(LimitPolicy policy) {
        return Math.min(policy.capacity(), largestCost);
    }

    /**
     * Its part of a store key ({@code tk}, {@code fw}, {@code sw}): each algorithm keeps its own buckets.
     */
    public String keyCode() {
        return keyCode;
    }

    /** {@code token-bucket}, {@code fixed-window}, {@code sliding-window}. */
    public String configName() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static Algorithm parse(String text) {
        for (Algorithm a : values()) {
            if (a.configName().equals(text.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("expected token-bucket, fixed-window or sliding-window");
    }
}
