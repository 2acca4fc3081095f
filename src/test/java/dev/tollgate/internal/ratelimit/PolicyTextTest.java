package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.LimitPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class PolicyTextTest {

    private static String tokenBucket(long capacity, long tokens, Duration period) {
        return PolicyText.of(Algorithm.TOKEN_BUCKET, LimitPolicy.of("x", capacity, tokens, period));
    }

    @Test
    void aTokenBucketReadsAsTheReadmeWritesIt() {
        assertEquals("3 per hour, bursts of 3", tokenBucket(3, 3, Duration.ofHours(1)));
        assertEquals("5 per second, bursts of 20", tokenBucket(20, 5, Duration.ofSeconds(1)));
        assertEquals("1 per minute, bursts of 10", tokenBucket(10, 1, Duration.ofMinutes(1)));
        assertEquals("100 per day, bursts of 5", tokenBucket(5, 100, Duration.ofDays(1)));
        assertEquals("2 per 1.5 s, bursts of 2", tokenBucket(2, 2, Duration.ofMillis(1500)));
        assertEquals("5 per 15 min, bursts of 10,000", tokenBucket(10_000, 5, Duration.ofMinutes(15)));
        assertEquals("a quota of 100, never refilled", tokenBucket(100, 0, Duration.ofSeconds(1)));
        assertEquals("unlimited", tokenBucket(LimitPolicy.MAX_COUNT, LimitPolicy.MAX_COUNT, Duration.ofMillis(1)));
    }

    @Test
    void windowsAndCostsSayWhatTheyAre() {
        LimitPolicy hundredAnHour = LimitPolicy.of("x", 100, 100, Duration.ofHours(1));
        assertEquals("100 per hour (fixed window)", PolicyText.of(Algorithm.FIXED_WINDOW, hundredAnHour));
        assertEquals("100 per hour (sliding window)", PolicyText.of(Algorithm.SLIDING_WINDOW, hundredAnHour));
        assertEquals(
                "1 per second, bursts of 10, each call costs 4",
                PolicyText.of(
                        Algorithm.TOKEN_BUCKET,
                        LimitPolicy.of("x", 10, 1, Duration.ofSeconds(1)).withCost(4)));
    }

    @Test
    void durationsInAPersonsUnits() {
        assertEquals("0 ms", PolicyText.duration(Duration.ZERO));
        assertEquals("250 ms", PolicyText.duration(Duration.ofMillis(250)));
        assertEquals("1 s", PolicyText.duration(Duration.ofSeconds(1)));
        assertEquals("1.2 s", PolicyText.duration(Duration.ofMillis(1234)));
        assertEquals("59.9 s", PolicyText.duration(Duration.ofMillis(59_940)));
        assertEquals("15 min", PolicyText.duration(Duration.ofMinutes(15)));
        assertEquals("1.5 h", PolicyText.duration(Duration.ofMinutes(90)));
        assertEquals("2 d", PolicyText.duration(Duration.ofDays(2)));
        assertEquals("36525 d", PolicyText.duration(LimitPolicy.MAX_PERIOD));
    }
}
