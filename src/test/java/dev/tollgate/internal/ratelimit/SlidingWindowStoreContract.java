package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every sliding-window-log store must do, asserted exactly: at most {@code capacity} calls within
 * any {@code refillPeriod} on the store's clock.
 */
public abstract class SlidingWindowStoreContract extends WindowStoreContractSupport {

    private static final Duration AGES = Duration.ofDays(1000);

    /** The admission time the store recorded last under {@code key}, in microseconds of its clock. */
    protected abstract long newestEntryMicros(String key);

    @Test
    void admitsTheLimitThenDeniesUntilTheOldestLeaves() throws Exception {
        LimitPolicy p = window(3, Duration.ofSeconds(1));
        String key = freshKey();
        assertEquals(2, store().tryConsume(p, key).remaining());
        long oldest = newestEntryMicros(key);
        elapse(Duration.ofMillis(100));
        assertEquals(1, store().tryConsume(p, key).remaining());
        assertEquals(0, store().tryConsume(p, key).remaining());
        long from = nowMicros();
        Decision denied = store().tryConsume(p, key);
        long to = nowMicros();
        assertFalse(denied.allowed());
        assertEquals(0, denied.remaining());
        assertBetween(oldest + 1_000_000 - to, denied.retryAfter(), oldest + 1_000_000 - from);
        elapse(denied.retryAfter());
        Decision again = store().tryConsume(p, key);
        assertTrue(again.allowed(), "the oldest has left");
        assertEquals(0, again.remaining());
    }

    @Test
    void costWaitsForEnoughOfTheOldestEntriesToLeave() throws Exception {
        LimitPolicy p = window(5, Duration.ofSeconds(1));
        String key = freshKey();
        store().tryConsume(p, key);
        elapse(Duration.ofMillis(50));
        store().tryConsume(p, key);
        long second = newestEntryMicros(key);
        elapse(Duration.ofMillis(50));
        assertEquals(2, store().tryConsume(p, key).remaining());
        long from = nowMicros();
        Decision denied = store().tryConsume(p.withCost(4), key);
        long to = nowMicros();
        assertFalse(denied.allowed());
        assertEquals(2, denied.remaining(), "a denial adds nothing");
        // 3 held + 4 wanted - 5 allowed = the 2 oldest must leave: the wait ends when the second does.
        assertBetween(second + 1_000_000 - to, denied.retryAfter(), second + 1_000_000 - from);
    }

    @Test
    void deniesTheSecondBurstThatAFixedWindowWouldAdmit() throws Exception {
        LimitPolicy p = window(60, Duration.ofSeconds(1));
        String key = freshKey();
        int admitted = 0;
        for (int i = 0; i < 60; i++) {
            admitted += store().tryConsume(p, key).allowed() ? 1 : 0;
        }
        elapse(Duration.ofMillis(300));
        for (int i = 0; i < 60; i++) {
            admitted += store().tryConsume(p, key).allowed() ? 1 : 0;
        }
        assertEquals(60, admitted);
    }

    /**
     * Calls every 5 ms for 2 s against 20 per 300 ms. The admission times are read back from the store
     * (Redis {@code TIME} for Redis): every window starting at an admission holds at most 20, so the run
     * admits at most 20 per 300 ms of its length; and every denied call had 20 admissions in the 300 ms
     * before it (its instant lies between two readings of the store's clock), so none was denied early.
     */
    @Test
    void neverAdmitsMoreThanTheLimitWithinAnyWindowNorDeniesBelowIt() throws Exception {
        long window = 300_000;
        LimitPolicy p = window(20, Duration.ofNanos(window * 1000));
        String key = freshKey();
        List<Long> admittedAt = new ArrayList<>();
        List<long[]> deniedWithin = new ArrayList<>();
        long first = nowMicros();
        for (int i = 0; i < 400; i++) {
            long from = nowMicros();
            boolean allowed = store().tryConsume(p, key).allowed();
            long to = nowMicros();
            if (allowed) {
                admittedAt.add(newestEntryMicros(key));
            } else {
                deniedWithin.add(new long[] {from, to});
            }
            elapse(Duration.ofMillis(5));
        }
        long span = nowMicros() - first;
        for (int i = 0; i < admittedAt.size(); i++) {
            long start = admittedAt.get(i);
            long inWindow = admittedAt.stream()
                    .filter(t -> t >= start && t < start + window)
                    .count();
            assertTrue(inWindow <= 20, inWindow + " admitted in the window from " + start);
        }
        long most = 20 * ((span + window - 1) / window);
        assertTrue(admittedAt.size() <= most, admittedAt.size() + " admitted in " + span + " us; at most " + most);
        for (long[] d : deniedWithin) {
            long before = admittedAt.stream()
                    .filter(t -> t > d[0] - window && t <= d[1])
                    .count();
            assertTrue(
                    before >= 20,
                    "a call denied in [" + d[0] + ", " + d[1] + "] had only " + before + " admitted"
                            + " in the window before it");
        }
        assertTrue(!deniedWithin.isEmpty() && admittedAt.size() > 20, "the limit was reached and the window slid");
        System.out.printf(
                "sliding window, 20 per 300 ms, a call every 5 ms: %d admitted in %d ms (at most %d)%n",
                admittedAt.size(), span / 1000, most);
    }

    @ParameterizedTest(name = "{0} in flight")
    @ValueSource(ints = {1, 8, 32})
    void admitsExactlyTheLimitWhateverTheConcurrency(int inFlight) throws Exception {
        for (int trial = 0; trial < 3; trial++) {
            assertEquals(100, admitted(window(100, AGES), freshKey(), 1000, inFlight), "trial " + trial);
        }
    }

    @Test
    void allowedCallResetsOneWindowAfterItself() {
        Decision d = store().tryConsume(window(5, Duration.ofSeconds(2)), freshKey());
        assertEquals(Duration.ofSeconds(2), d.resetAfter());
        assertEquals(4, d.remaining());
    }

    private static void assertBetween(long lowMicros, Duration actual, long highMicros) {
        long us = actual.toNanos() / 1000;
        assertTrue(us >= lowMicros && us <= highMicros, us + " us not in [" + lowMicros + ", " + highMicros + "]");
    }
}
