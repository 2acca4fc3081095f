package dev.tollgate;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;

/**
 * One named limit: a token bucket of {@code capacity} tokens that gains {@code refillTokens} every
 * {@code refillPeriod}, of which each call spends {@code cost}.
 *
 * <p>Every value is checked when the policy is built, so a policy that can never admit a call (a
 * cost above the capacity), that would divide by zero, or whose counts and times Redis's scripts
 * could not hold exactly (they count in doubles) never reaches a store.
 *
 * @param name the limit's name, used in keys, headers, metrics and logs: letters, digits, {@code _ -}, at most 64 characters
 * @param capacity the bucket size, the most calls that can pass in a burst; 1..{@link #MAX_COUNT}
 * @param refillTokens tokens added per {@code refillPeriod}; 0..{@link #MAX_COUNT} (0: the bucket never
 *     refills, a fixed quota)
 * @param refillPeriod the period over which {@code refillTokens} are added; 1 ms..{@link #MAX_PERIOD}
 * @param cost tokens one call spends; 1..capacity
 * @param calendar a calendar quota's period, whose start gives its whole capacity back (its {@code
 *     refillTokens} is the capacity, its {@code refillPeriod} the period's longest length); null for
 *     every other limit
 */
public record LimitPolicy(
        String name, long capacity, long refillTokens, Duration refillPeriod, long cost, CalendarPeriod calendar) {

    /** The largest capacity or refill: 2^53 ({@link LimitRules#MAX_COUNT}). */
    public static final long MAX_COUNT = LimitRules.MAX_COUNT;

    /** The longest refill period or window: 100 years ({@link LimitRules#MAX_PERIOD}). */
    public static final Duration MAX_PERIOD = LimitRules.MAX_PERIOD;

    public LimitPolicy {
        if (!LimitRules.isName(name)) {
            throw new IllegalArgumentException("name must be " + LimitRules.NAME_RULE + ", but was '" + name + "'");
        }
        if (refillPeriod == null) {
            throw new IllegalArgumentException("limit '" + name + "': refillPeriod must not be null");
        }
        List<ConfigProblem> problems = LimitRules.check(null, capacity, refillTokens, refillPeriod, cost, null);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("limit '" + name + "': "
                    + String.join(
                            "; ", problems.stream().map(p -> p.describe("")).toList()));
        }
    }

    /** A policy without a calendar period. */
    public LimitPolicy(String name, long capacity, long refillTokens, Duration refillPeriod, long cost) {
        this(name, capacity, refillTokens, refillPeriod, cost, null);
    }

    /** {@code capacity} calls per calendar {@code period}; each call costs 1. */
    public static LimitPolicy calendar(String name, long capacity, CalendarPeriod period) {
        return new LimitPolicy(name, capacity, capacity, period.unit().longest(), 1, period);
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
        return new LimitPolicy(name, capacity, refillTokens, refillPeriod, newCost, calendar);
    }

    /** Whether spent tokens ever come back. */
    public boolean refills() {
        return refillTokens > 0;
    }

    /** {@code refillPeriod} in whole microseconds (at least 1), as the stores count time. */
    public long refillPeriodMicros() {
        return micros(refillPeriod);
    }

    private static long micros(Duration d) {
        return Math.max(1, d.toNanos() / 1000);
    }

    /**
     * How long an empty bucket takes to refill to its capacity ({@code capacity × refillPeriod /
     * refillTokens}, rounded up to the microsecond), computed without overflow; {@code null} if it
     * never refills.
     */
    public Duration refillFromEmpty() {
        return refills() ? refillFromEmpty(capacity, refillTokens, refillPeriod) : null;
    }

    /** {@link #refillFromEmpty()} of a bucket of these values; {@code refillTokens} &gt; 0. */
    static Duration refillFromEmpty(long capacity, long refillTokens, Duration refillPeriod) {
        long period = micros(refillPeriod);
        long product = capacity * period;
        if (Math.multiplyHigh(capacity, period) == 0 && product >= 0) {
            return ofMicros(Math.floorDiv(product, refillTokens) + (product % refillTokens == 0 ? 0 : 1));
        }
        BigInteger[] qr = BigInteger.valueOf(capacity)
                .multiply(BigInteger.valueOf(period))
                .divideAndRemainder(BigInteger.valueOf(refillTokens));
        BigInteger micros = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        // Beyond 2^63 us (292,000 years) nothing is counted any more: say so without overflowing.
        return micros.bitLength() > 63 ? ofMicros(Long.MAX_VALUE) : ofMicros(micros.longValue());
    }

    private static Duration ofMicros(long micros) {
        return Duration.ofSeconds(micros / 1_000_000, micros % 1_000_000 * 1000);
    }

    /** The period over which a full bucket is refilled from empty, rounded up to whole seconds; 0 if it never refills. */
    public long windowSeconds() {
        Duration d = refillFromEmpty();
        if (d == null) {
            return 0;
        }
        return d.getNano() == 0 ? d.getSeconds() : d.getSeconds() + 1;
    }
}
