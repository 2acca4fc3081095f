package dev.tollgate.internal.guard;

import java.time.Duration;

/**
 * How a {@link RedisGuard} bounds and breaks. The defaults below are the only ones: the settings
 * reader ({@code tollgate.redis.timeout}, {@code tollgate.redis.pool-size}, {@code
 * tollgate.breaker.failures}, {@code tollgate.breaker.delay}), Fault Tolerance's annotations and plain Java
 * all take them from here.
 *
 * @param budget the most a caller waits for one call; &gt; 0
 * @param failureThreshold failures in a row that open the breaker; &gt; 0
 * @param breakerDelay how long an open breaker refuses calls before a probe may try one; &ge; 0
 * @param probeInterval how often the background probe asks Redis while the breaker is open; &gt; 0
 * @param workers worker threads (and queue places) for Redis calls; &gt; 0
 */
public record GuardSettings(
        Duration budget, int failureThreshold, Duration breakerDelay, Duration probeInterval, int workers) {

    /** {@code tollgate.redis.timeout}'s default: the budget of one check, in milliseconds. */
    public static final int DEFAULT_BUDGET_MILLIS = 250;

    /** {@code tollgate.breaker.failures}' default: failures in a row that open the breaker. */
    public static final int DEFAULT_FAILURE_THRESHOLD = 3;

    /** {@code tollgate.breaker.delay}'s default: how long an open breaker waits before its half-open trial, in ms. */
    public static final int DEFAULT_BREAKER_DELAY_MILLIS = 500;

    /** How often the background probe asks a Redis that is not answering, in milliseconds. */
    public static final int DEFAULT_PROBE_INTERVAL_MILLIS = 100;

    /** {@code tollgate.redis.pool-size}'s default: Redis connections, and as many worker threads. */
    public static final int DEFAULT_WORKERS = 16;

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

    /** Every default: a 250 ms budget, 16 workers, 3 failures in a row open the breaker for 500 ms, probe every 100 ms. */
    public static GuardSettings defaults() {
        return defaults(Duration.ofMillis(DEFAULT_BUDGET_MILLIS), DEFAULT_WORKERS);
    }

    /** Tollgate's breaker defaults around {@code budget} and {@code workers}. */
    public static GuardSettings defaults(Duration budget, int workers) {
        return new GuardSettings(
                budget,
                DEFAULT_FAILURE_THRESHOLD,
                Duration.ofMillis(DEFAULT_BREAKER_DELAY_MILLIS),
                Duration.ofMillis(DEFAULT_PROBE_INTERVAL_MILLIS),
                workers);
    }

    /** These settings with another breaker threshold ({@link Integer#MAX_VALUE}: a breaker that never opens). */
    public GuardSettings withFailureThreshold(int threshold) {
        return new GuardSettings(budget, threshold, breakerDelay, probeInterval, workers);
    }

    /** These settings with another breaker: {@code failures} in a row open it for {@code delay}. */
    public GuardSettings withBreaker(int failures, Duration delay) {
        return new GuardSettings(budget, failures, delay, probeInterval, workers);
    }

    private static void positive(Duration d, String name) {
        if (d == null || d.isZero() || d.isNegative()) {
            throw new IllegalArgumentException(name + " must be > 0, but was " + d);
        }
    }
}
