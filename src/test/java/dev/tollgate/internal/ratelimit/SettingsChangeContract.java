package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A limit's settings changed between deploys, or different on two servers during a rolling deploy:
 * the state one setting wrote is read under another. Every transition must take effect within one old
 * window, never lock anyone out, and never make a decision fail.
 */
public abstract class SettingsChangeContract {

    /** Calls in one microsecond are dated a microsecond apart in a sliding log, so waits may run over by that. */
    private static final Duration SLACK = Duration.ofMillis(1);

    /** The store for {@code algorithm}; the same instance for the whole test. */
    protected abstract RateLimitStore store(Algorithm algorithm);

    protected abstract TestClock clock();

    protected static String freshKey() {
        return "change:" + UUID.randomUUID();
    }

    private Decision check(Algorithm a, LimitPolicy p, String key) {
        return store(a).tryConsume(p, key);
    }

    private static LimitPolicy window(long limit, Duration window) {
        return new LimitPolicy("change", limit, limit, window, 1);
    }

    private void spend(Algorithm a, LimitPolicy p, String key, int n) {
        for (int i = 0; i < n; i++) {
            assertTrue(check(a, p, key).allowed(), "call " + i + " of " + n);
        }
    }

    /** 3 per 1 s raised to 3 per 60 s: the spent 1 s window ends as it would have, then 60 s windows. */
    @Test
    void fixedWindowRaisedFrom1sTo60sLocksNobodyOutBeyondTheOldWindow() throws Exception {
        String key = freshKey();
        spend(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(1)), key, 3);
        Decision d = check(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(60)), key);
        assertFalse(d.allowed(), "the old window's 3 are still spent");
        assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(1)) <= 0, "retry after " + d.retryAfter());
        assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0, "reset after " + d.resetAfter());
        clock().elapse(d.retryAfter());
        Decision next = check(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(60)), key);
        assertTrue(next.allowed(), "a 60 s window began");
        assertEquals(2, next.remaining());
        assertTrue(next.resetAfter().compareTo(Duration.ofSeconds(60)) <= 0, "reset after " + next.resetAfter());
    }

    /** 3 per 60 s shortened to 3 per 1 s: the long window is more than one new window ahead and resets. */
    @Test
    void fixedWindowShortenedFrom60sTo1sTakesEffectAtOnce() {
        String key = freshKey();
        spend(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(60)), key, 3);
        Decision d = check(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(1)), key);
        // The old window may happen to end within the next second; then it is kept until it ends.
        if (d.allowed()) {
            assertEquals(2, d.remaining(), "a fresh 1 s window, this call counted: " + d);
        } else {
            assertEquals(0, d.remaining(), d.toString());
            assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(1)) <= 0, "within one new window: " + d);
        }
        assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0, "reset after " + d.resetAfter());
    }

    @Test
    void fixedWindowWhoseLimitWasLoweredBelowWhatWasSpentDeniesWithNothingLeft() {
        String key = freshKey();
        spend(Algorithm.FIXED_WINDOW, window(10, Duration.ofSeconds(60)), key, 5);
        Decision d = check(Algorithm.FIXED_WINDOW, window(3, Duration.ofSeconds(60)), key);
        assertFalse(d.allowed());
        assertEquals(0, d.remaining(), "never negative");
        assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(60)) <= 0, "retry after " + d.retryAfter());
    }

    @Test
    void slidingWindowWhoseLimitWasLoweredBelowWhatItHoldsDeniesWithNothingLeft() {
        String key = freshKey();
        spend(Algorithm.SLIDING_WINDOW, window(10, Duration.ofSeconds(60)), key, 5);
        Decision d = check(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(60)), key);
        assertFalse(d.allowed());
        assertEquals(0, d.remaining(), "never negative");
        // Calls within one microsecond are dated a microsecond apart: allow for that.
        assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(60).plus(SLACK)) <= 0, "retry " + d.retryAfter());
    }

    @Test
    void slidingWindowShortenedFrom60sTo1sForgetsWhatLeftTheNewWindow() throws Exception {
        String key = freshKey();
        spend(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(60)), key, 3);
        Decision d = check(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(1)), key);
        assertFalse(d.allowed(), "the 3 calls are within the last second too");
        assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(1)) <= 0, "retry after " + d.retryAfter());
        clock().elapse(d.retryAfter());
        assertTrue(check(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(1)), key)
                .allowed());
    }

    @Test
    void slidingWindowRaisedFrom1sTo60sCountsTheCallsOfTheLastMinute() {
        String key = freshKey();
        spend(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(1)), key, 2);
        Decision d = check(Algorithm.SLIDING_WINDOW, window(3, Duration.ofSeconds(60)), key);
        assertTrue(d.allowed());
        assertEquals(0, d.remaining(), "the two earlier calls count in the longer window");
    }

    @Test
    void tokenBucketWhoseCapacityWasLoweredHoldsTheNewCapacityAtOnce() {
        String key = freshKey();
        spend(Algorithm.TOKEN_BUCKET, LimitPolicy.of("change", 10, 1, Duration.ofHours(1)), key, 2);
        Decision d = check(Algorithm.TOKEN_BUCKET, LimitPolicy.of("change", 3, 1, Duration.ofHours(1)), key);
        assertTrue(d.allowed());
        assertEquals(2, d.remaining(), "8 left, cut to the new capacity of 3, one spent");
        assertTrue(d.resetAfter().compareTo(Duration.ofHours(1)) <= 0, "reset after " + d.resetAfter());
    }

    @Test
    void tokenBucketWhoseRefillWasSpedUpRefillsAtTheNewRate() throws Exception {
        String key = freshKey();
        spend(Algorithm.TOKEN_BUCKET, LimitPolicy.of("change", 2, 1, Duration.ofHours(1)), key, 2);
        LimitPolicy fast = LimitPolicy.of("change", 2, 2, Duration.ofMillis(100));
        Decision d = check(Algorithm.TOKEN_BUCKET, fast, key);
        if (!d.allowed()) {
            assertTrue(d.retryAfter().compareTo(Duration.ofMillis(50)) <= 0, "retry after " + d.retryAfter());
            clock().elapse(d.retryAfter());
            assertTrue(check(Algorithm.TOKEN_BUCKET, fast, key).allowed());
        }
    }

    @Test
    void tokenBucketWhoseRefillWasSlowedDownWaitsAtMostTheNewRate() {
        String key = freshKey();
        spend(Algorithm.TOKEN_BUCKET, LimitPolicy.of("change", 2, 2, Duration.ofMillis(100)), key, 2);
        Decision d = check(Algorithm.TOKEN_BUCKET, LimitPolicy.of("change", 2, 1, Duration.ofMinutes(1)), key);
        // Nothing but the time since the spend (milliseconds) refills: at most one token, and this call spends it.
        assertEquals(0, d.remaining(), d.toString());
        if (!d.allowed()) {
            assertTrue(d.retryAfter().compareTo(Duration.ofMinutes(1)) <= 0, "at most the new rate: " + d);
        }
        assertTrue(d.resetAfter().compareTo(Duration.ofMinutes(2)) <= 0, "full at the new rate: " + d);
    }

    @Test
    void quotaGivenARefillStartsRefilling() throws Exception {
        String key = freshKey();
        spend(Algorithm.TOKEN_BUCKET, LimitPolicy.quota("change", 2), key, 2);
        LimitPolicy refilling = LimitPolicy.of("change", 2, 1, Duration.ofMillis(100));
        Decision d = check(Algorithm.TOKEN_BUCKET, refilling, key);
        if (!d.allowed()) {
            assertTrue(d.retryAfter().compareTo(Duration.ofMillis(100)) <= 0, d.toString());
        }
        clock().elapse(d.allowed() ? Duration.ofMillis(100) : d.retryAfter());
        assertTrue(check(Algorithm.TOKEN_BUCKET, refilling, key).allowed(), "the spent quota refills");
    }

    /**
     * Two servers with different settings for one limit during a rolling deploy, calling in turns on
     * the same keys: every decision is a decision (no exception), nothing is ever negative, and no
     * wait is longer than the longer of the two settings' windows.
     */
    @Test
    void mixedSettingsDuringARollingDeployNeverThrowNorLockOut() {
        Random random = new Random(42);
        List<String> seen = new ArrayList<>();
        for (Algorithm a : Algorithm.values()) {
            for (int pair = 0; pair < 6; pair++) {
                LimitPolicy one = randomPolicy(a, random);
                LimitPolicy two = randomPolicy(a, random);
                long longest = Math.max(wait(a, one), wait(a, two));
                String key = freshKey();
                for (int i = 0; i < 40; i++) {
                    LimitPolicy p = random.nextBoolean() ? one : two;
                    Decision d = check(a, p, key);
                    assertTrue(d.remaining() >= 0 && d.remaining() <= p.capacity(), a + " " + p + ": " + d);
                    assertTrue(
                            !d.retryAfter().equals(Decision.NEVER)
                                    && d.retryAfter().toNanos() / 1000 <= longest + SLACK.toNanos() / 1000,
                            a + " " + one + " / " + two + ": " + d);
                }
                seen.add(a.configName());
            }
        }
        assertEquals(6 * Algorithm.values().length, seen.size());
    }

    private static LimitPolicy randomPolicy(Algorithm a, Random random) {
        long capacity = 1 + random.nextInt(6);
        Duration period = Duration.ofMillis(new long[] {1, 50, 1000, 60_000, 86_400_000L}[random.nextInt(5)]);
        long refill = a == Algorithm.TOKEN_BUCKET ? 1 + random.nextInt(3) : capacity;
        if (a == Algorithm.CALENDAR) {
            // A quota whose capacity, cost, unit and anchor change between deploys.
            dev.tollgate.CalendarPeriod.Unit unit = dev.tollgate.CalendarPeriod.Unit.values()[random.nextInt(4)];
            dev.tollgate.CalendarPeriod c =
                    dev.tollgate.CalendarPeriod.of(unit).anchoredOn(1 + random.nextInt(unit.largestAnchor()));
            return LimitPolicy.calendar("change", capacity, c).withCost(1 + random.nextInt((int) capacity));
        }
        return new LimitPolicy("change", capacity, refill, period, 1 + random.nextInt((int) capacity));
    }

    /** The longest a denied call of {@code p} may be told to wait, in microseconds. */
    private static long wait(Algorithm a, LimitPolicy p) {
        long period = p.refillPeriod().toNanos() / 1000;
        return a == Algorithm.TOKEN_BUCKET ? p.capacity() * period / p.refillTokens() + period : period;
    }
}
