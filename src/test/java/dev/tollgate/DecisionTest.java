package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;

/** A store's microseconds read as the durations they are, from zero to the longest a long holds; negative: never. */
class DecisionTest {

    @Test
    void microsecondsAreReadAsTheirDurationAtEveryMagnitude() {
        long[] micros = {
            0,
            1,
            999,
            1_000,
            999_999,
            1_000_000,
            1_000_001,
            86_400_000_000L,
            Long.MAX_VALUE / 1000 - 1,
            Long.MAX_VALUE / 1000,
            Long.MAX_VALUE / 1000 + 1,
            Long.MAX_VALUE
        };
        for (long m : micros) {
            Decision d = Decision.ofMicros(false, 0, m, m);
            Duration expected = Duration.of(m, ChronoUnit.MICROS);
            assertEquals(expected, d.retryAfter(), m + " µs");
            assertEquals(expected, d.resetAfter(), m + " µs");
        }
        assertSame(Duration.ZERO, Decision.ofMicros(true, 5, 0, 0).retryAfter());
        assertSame(Decision.NEVER, Decision.ofMicros(false, 0, -1, -1).retryAfter());
        assertSame(
                Decision.NEVER, Decision.ofMicros(false, 0, Long.MIN_VALUE, -1).resetAfter());
        assertEquals(0, Decision.ofMicros(true, -3, 0, 0).remaining(), "a negative count is read as 0");
    }
}
