package dev.tollgate.guard;

import java.time.Duration;

/**
 * How a {@link RedisGuard} bounds and breaks.
 *
 * @param budget the most a caller waits for one check; &gt; 0
 * @param failureThreshold failures in a row that open the breaker; &gt; 0
 * @param breakerDelay how long an open breaker refuses calls before a probe may try one; &ge; 0
 * @param probeInterval how often the background probe asks Redis while the breaker is open; &gt; 0
 * @param workers worker threads (and queue places) for Redis calls; &gt; 0
 */
public record GuardSettings(
        Duration budget, int failureThreshold, Duration breakerDelay, Duration probeInterval, int workers) {

    public GuardSettings {
        positive(budget, "budget");
        positive(probeInterval, "probeInterval");
        if (breakerDelay == null || breakerDelay.isNegative()) {
            throw new IllegalArgumentException("breakerDelay must be >= 0, but was " + breakerDelay);
        }
        if (failureThreshold < 1) {
            throw new IllegalArgumentException("failureThreshold must be > 0, but was " + failureThreshold);
        }
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be > 0, but was " + workers);
        }
    }

    /** Tollgate's defaults around {@code budget}: 3 failures in a row open the breaker for 500 ms, probe every 100 ms. */
    public static GuardSettings defaults(Duration budget, int workers) {
        return new GuardSettings(
                budget, 3, java.time.Duration.ofMillis(500), java.time.Duration.ofMillis(100), workers);
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be > 0, but was " + d);
        }
    }
}
