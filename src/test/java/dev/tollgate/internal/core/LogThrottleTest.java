package dev.tollgate.internal.core;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One line per subject per period, on a clock the test drives through the constructor: no sleeps. */
class LogThrottleTest {

    private final AtomicLong nanos = new AtomicLong(123_456_789L);
    private final LogThrottle throttle = new LogThrottle(Duration.ofSeconds(60), nanos::get);

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void theFirstLineIsLoggedAndTheRepeatsWithinThePeriodAreNot() {
        assertTrue(throttle.allow("limit 'api'"));
        assertFalse(throttle.allow("limit 'api'"), "at once");
        advance(Duration.ofSeconds(60).minusNanos(1));
        assertFalse(throttle.allow("limit 'api'"), "one nanosecond before the period ends");
        advance(Duration.ofNanos(1));
        assertTrue(throttle.allow("limit 'api'"), "the period has passed");
        assertFalse(throttle.allow("limit 'api'"), "and a new one began");
    }

    @Test
    void aRefusedLineDoesNotStartThePeriodAgain() {
        assertTrue(throttle.allow("x"));
        advance(Duration.ofSeconds(59));
        assertFalse(throttle.allow("x"));
        advance(Duration.ofSeconds(1));
        assertTrue(throttle.allow("x"), "60 s after the line logged, not after the refused one");
    }

    @Test
    void eachSubjectHasItsOwnPeriod() {
        assertTrue(throttle.allow("limit 'a'"));
        advance(Duration.ofSeconds(30));
        assertTrue(throttle.allow("limit 'b'"), "another subject is not held back by 'a'");
        assertFalse(throttle.allow("limit 'a'"));
        advance(Duration.ofSeconds(30));
        assertTrue(throttle.allow("limit 'a'"));
        assertFalse(throttle.allow("limit 'b'"), "'b' started 30 s later");
        advance(Duration.ofSeconds(30));
        assertTrue(throttle.allow("limit 'b'"));
    }

    @Test
    void aResetLogsTheNextLineAtOnce() {
        assertTrue(throttle.allow("x"));
        assertTrue(throttle.allow("y"));
        throttle.reset("x");
        assertTrue(throttle.allow("x"), "the problem ended and began again");
        assertFalse(throttle.allow("x"));
        assertFalse(throttle.allow("y"), "only the subject reset");
    }

    @Test
    void aClockNearTheEndOfItsRangeStillCounts() {
        // System.nanoTime may be any value, negative too; only differences count.
        nanos.set(Long.MAX_VALUE - Duration.ofSeconds(30).toNanos());
        assertTrue(throttle.allow("x"));
        advance(Duration.ofSeconds(20));
        assertFalse(throttle.allow("x"), "the period's end overflows, the clock not yet");
        advance(Duration.ofSeconds(39));
        assertFalse(throttle.allow("x"), "across the overflow");
        advance(Duration.ofSeconds(1));
        assertTrue(throttle.allow("x"));
    }

    @Test
    void theMinuteIsTollgatesPeriod() {
        LogThrottle minute = new LogThrottle(LogThrottle.MINUTE, nanos::get);
        assertTrue(minute.allow("x"));
        advance(Duration.ofSeconds(59));
        assertFalse(minute.allow("x"));
        advance(Duration.ofSeconds(1));
        assertTrue(minute.allow("x"));
    }
}
