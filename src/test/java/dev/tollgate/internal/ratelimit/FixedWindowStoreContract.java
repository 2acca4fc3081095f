package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every fixed-window store must do, asserted exactly: {@code capacity} calls per window of
 * {@code refillPeriod}, windows aligned to the store's clock.
 */
public abstract class FixedWindowStoreContract extends WindowStoreContractSupport {

    private static final Duration AGES = Duration.ofDays(1000);

    @Test
    void admitsTheLimitThenDeniesUntilTheWindowEnds() {
        LimitPolicy p = window(5, Duration.ofSeconds(10));
        String key = freshKey();
        for (int i = 4; i >= 0; i--) {
            Decision d = store().tryConsume(p, key);
            assertTrue(d.allowed());
            assertEquals(i, d.remaining());
            assertEquals(Duration.ZERO, d.retryAfter());
        }
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(0, denied.remaining());
        assertEquals(denied.resetAfter(), denied.retryAfter(), "a denied call may pass when the window ends");
        assertTrue(
                denied.retryAfter().compareTo(Duration.ZERO) > 0
                        && denied.retryAfter().compareTo(Duration.ofSeconds(10)) <= 0,
                "retry " + denied.retryAfter());
    }

    @Test
    void costSpendsSeveralAndADenialSpendsNothing() {
        LimitPolicy p = window(10, AGES).withCost(3);
        String key = freshKey();
        assertEquals(7, store().tryConsume(p, key).remaining());
        assertEquals(4, store().tryConsume(p, key).remaining());
        assertEquals(1, store().tryConsume(p, key).remaining());
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(1, denied.remaining());
        Decision last = store().tryConsume(p.withCost(1), key);
        assertTrue(last.allowed(), "the denial kept the last one");
        assertEquals(0, last.remaining());
    }

    @Test
    void nextWindowStartsFromZero() throws Exception {
        LimitPolicy p = window(2, Duration.ofSeconds(1));
        String key = freshKey();
        Decision probe = store().tryConsume(p, freshKey());
        if (probe.resetAfter().compareTo(Duration.ofMillis(600)) < 0) {
            elapse(probe.resetAfter().plusMillis(10)); // the three calls below must share one window
        }
        store().tryConsume(p, key);
        store().tryConsume(p, key);
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        elapse(denied.retryAfter());
        Decision next = store().tryConsume(p, key);
        assertTrue(next.allowed());
        assertEquals(1, next.remaining());
    }

    /**
     * The article's flaw, kept on purpose: 60 per minute scaled to 60 per second, 60 calls just before
     * a boundary and 60 just after all pass, twice the limit in a fraction of one window.
     */
    @Test
    void admitsTwiceTheLimitWithinMomentsAcrossAWindowBoundary() throws Exception {
        LimitPolicy p = window(60, Duration.ofSeconds(1));
        String key = freshKey();
        Decision probe = store().tryConsume(p, freshKey());
        if (probe.resetAfter().compareTo(Duration.ofMillis(400)) < 0) {
            elapse(probe.resetAfter().plusMillis(10)); // too close to a boundary to fit the first burst
            probe = store().tryConsume(p, freshKey());
        }
        // 300 ms before the boundary: room for a burst of 60 on a loaded machine (it must fit in one window).
        elapse(probe.resetAfter().minusMillis(300));
        long first = nowMicros();
        int admitted = burst(p, key, 60);
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed(), "the 61st in one window is denied");
        elapse(denied.retryAfter());
        admitted += burst(p, key, 60);
        long last = nowMicros();
        assertEquals(120, admitted);
        assertTrue(last - first < 1_000_000, "twice the limit within less than one window: " + (last - first) + " us");
        System.out.printf(
                "fixed window, 60 per 1 s: 120 admitted within %d ms across a boundary%n", (last - first) / 1000);
    }

    @ParameterizedTest(name = "{0} in flight")
    @ValueSource(ints = {1, 8, 32})
    void admitsExactlyTheLimitWhateverTheConcurrency(int inFlight) throws Exception {
        for (int trial = 0; trial < 3; trial++) {
            assertEquals(100, admitted(window(100, AGES), freshKey(), 1000, inFlight), "trial " + trial);
        }
    }

    @Test
    void windowsOfDifferentKeysAreIndependent() {
        LimitPolicy p = window(1, AGES);
        String a = freshKey();
        assertTrue(store().tryConsume(p, a).allowed());
        assertFalse(store().tryConsume(p, a).allowed());
        assertTrue(store().tryConsume(p, freshKey()).allowed());
    }

    /** {@code n} calls in a row, each of which must pass with the remaining count going down by one. */
    private int burst(LimitPolicy p, String key, int n) {
        int admitted = 0;
        for (int i = n - 1; i >= 0; i--) {
            Decision d = store().tryConsume(p, key);
            assertEquals(i, d.remaining(), "all in one window");
            admitted += d.allowed() ? 1 : 0;
        }
        return admitted;
    }
}
