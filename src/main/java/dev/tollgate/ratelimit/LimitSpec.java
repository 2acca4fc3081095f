package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;
import java.time.Duration;

/**
 * A configured limit: its policy, how it counts, whose bucket a call spends from, and what to decide
 * when the store cannot be asked. A window limit's policy refills its whole capacity once per window.
 *
 * <p>Checked when built, beyond what {@link LimitPolicy} checks: a token bucket refills from empty
 * within {@link #MAX_REFILL_FROM_EMPTY} (its keys live that long at most), and a sliding window holds
 * at most {@link #MAX_SLIDING_WINDOW_CAPACITY} calls (one Redis entry each) and adds at most {@link
 * #MAX_SLIDING_WINDOW_COST} in one call.
 */
public record LimitSpec(LimitPolicy policy, Algorithm algorithm, KeySpec key, boolean failOpen) {

    /**
     * The largest sliding-window capacity: the log keeps one entry (about 127 bytes in Redis) per
     * admitted call for a whole window, 1.3 MB per client key at 10,000, and one call may trim that
     * many entries that left the window (under 2 ms of Redis).
     */
    public static final long MAX_SLIDING_WINDOW_CAPACITY = 10_000;

    /**
     * The largest sliding-window cost: a call adds one entry per unit, and Redis runs nothing else
     * meanwhile (1,000 entries: about 2 ms; 10,000 took 40-80 ms on this project's machines).
     */
    public static final long MAX_SLIDING_WINDOW_COST = 1_000;

    /** The longest a token bucket may take to refill from empty, and so the longest its key lives: 100 years. */
    public static final Duration MAX_REFILL_FROM_EMPTY = LimitPolicy.MAX_PERIOD;

    public LimitSpec {
        if (policy == null || algorithm == null || key == null) {
            throw new IllegalArgumentException("policy, algorithm and key are required");
        }
        if (algorithm == Algorithm.SLIDING_WINDOW && policy.capacity() > MAX_SLIDING_WINDOW_CAPACITY) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': a sliding window's capacity must be"
                    + " at most " + MAX_SLIDING_WINDOW_CAPACITY + ", but was " + policy.capacity());
        }
        if (algorithm == Algorithm.SLIDING_WINDOW && policy.cost() > MAX_SLIDING_WINDOW_COST) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': a sliding window's cost must be"
                    + " at most " + MAX_SLIDING_WINDOW_COST + ", but was " + policy.cost());
        }
        if (algorithm == Algorithm.TOKEN_BUCKET
                && policy.refills()
                && policy.refillFromEmpty().compareTo(MAX_REFILL_FROM_EMPTY) > 0) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': an empty bucket must refill within"
                    + " 100 years, but takes " + policy.refillFromEmpty().toDays() + " days");
        }
    }

    /** A token bucket. */
    public LimitSpec(LimitPolicy policy, KeySpec key, boolean failOpen) {
        this(policy, Algorithm.TOKEN_BUCKET, key, failOpen);
    }

    public String name() {
        return policy.name();
    }
}
