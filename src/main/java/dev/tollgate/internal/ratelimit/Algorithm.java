package dev.tollgate.internal.ratelimit;

import dev.tollgate.Limit;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LimitRules;

/**
 * How a limit counts ({@link Limit.Algorithm}), as the engine holds it, and what its script takes: the
 * largest capacity and the largest cost of one call ({@link #largestCapacity()}, {@link #largestCost()}),
 * which {@link LimitRules} states once. A limit is checked against them when it is built ({@link
 * LimitSpec}), and every call before its store is asked ({@link Charge#neverPasses()}). The scripts check
 * the same numbers again only to detect a bug ({@code sliding-window.lua}; their refusal is {@link
 * ArgumentsRefusedException}), and {@code ScriptLimitsAgreementTest} proves they agree.
 */
public enum Algorithm {
    /** {@code capacity} tokens, {@code refill-tokens} back every {@code refill-period}: bursts, then a steady rate. */
    TOKEN_BUCKET("tk", Limit.Algorithm.TOKEN_BUCKET),
    /** {@code capacity} calls per {@code refill-period}, counted per calendar window: cheap, lets 2x through at a boundary. */
    FIXED_WINDOW("fw", Limit.Algorithm.FIXED_WINDOW),
    /**
     * {@code capacity} calls in any {@code refill-period}: exact, costs memory per admitted call. The log
     * keeps one entry (about 127 bytes in Redis) per admitted call for a whole window, 1.3 MB per client
     * key at the largest capacity, and one call may trim that many entries that left the window (under 2
     * ms of Redis). One call adds one entry per unit of cost, and Redis runs nothing else meanwhile (1,000
     * entries: about 2 ms; 10,000 took 40-80 ms on this project's machines).
     */
    SLIDING_WINDOW("sw", Limit.Algorithm.SLIDING_WINDOW),
    /**
     * {@code capacity} calls per calendar period ({@link dev.tollgate.CalendarPeriod}), all back at the next
     * period's start: a window whose bounds Java computes in the zone and Redis's clock chooses among
     * ({@code calendar.lua}). The same memory as a fixed window.
     */
    CALENDAR("cq", Limit.Algorithm.CALENDAR);

    private final String keyCode;
    private final Limit.Algorithm api;

    Algorithm(String keyCode, Limit.Algorithm api) {
        this.keyCode = keyCode;
        this.api = api;
    }

    /** The engine's form of {@code algorithm}. */
    public static Algorithm of(Limit.Algorithm algorithm) {
        return valueOf(algorithm.name());
    }

    /** The API's form. */
    public Limit.Algorithm api() {
        return api;
    }

    /** The largest capacity a limit of this algorithm may have ({@link LimitRules#largestCapacity}). */
    public long largestCapacity() {
        return LimitRules.largestCapacity(api);
    }

    /**
     * The most one call may cost under this algorithm, whatever the capacity ({@link LimitRules#largestCost}; a
     * call never costs more than the capacity in force either: {@link #largestCost(LimitPolicy)}).
     */
    public long largestCost() {
        return LimitRules.largestCost(api);
    }
    /** The most one call may cost under {@code policy}: its capacity, at most {@link #largestCost()}. */
    public long largestCost(LimitPolicy policy) {
        return Math.min(policy.capacity(), largestCost());
    }

    /**
     * Its part of a store key ({@code tk}, {@code fw}, {@code sw}): each algorithm keeps its own buckets.
     */
    public String keyCode() {
        return keyCode;
    }

    /** {@code token-bucket}, {@code fixed-window}, {@code sliding-window}, {@code calendar}. */
    public String configName() {
        return api.configName();
    }

    public static Algorithm parse(String text) {
        for (Algorithm a : values()) {
            if (a.configName().equals(text.trim())) {
                return a;
            }
        }
        throw new IllegalArgumentException("expected token-bucket, fixed-window, sliding-window or calendar");
    }
}
