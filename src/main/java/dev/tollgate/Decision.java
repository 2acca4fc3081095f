package dev.tollgate;

import java.time.Duration;
import java.time.temporal.ChronoUnit;

/**
 * The answer to one check.
 *
 * @param allowed whether the call may proceed
 * @param remaining whole tokens left after this decision
 * @param retryAfter when a denied call could pass at the earliest ({@link Duration#ZERO} when allowed;
 *     {@link #NEVER} when the bucket never refills)
 * @param resetAfter when the bucket will be full again if nothing is spent ({@link #NEVER} when it
 *     never refills and is not full)
 * @param degraded whether the store could not be asked and this is the configured degraded decision
 */
public record Decision(boolean allowed, long remaining, Duration retryAfter, Duration resetAfter, boolean degraded) {

    /** Stands for "never" in {@link #retryAfter()} and {@link #resetAfter()}. */
    public static final Duration NEVER = ChronoUnit.FOREVER.getDuration();

    public Decision {
        if (remaining < 0) {
            throw new IllegalArgumentException("remaining must be >= 0, but was " + remaining);
        }
        if (retryAfter == null || retryAfter.isNegative()) {
            throw new IllegalArgumentException("retryAfter must be >= 0, but was " + retryAfter);
        }
        if (resetAfter == null || resetAfter.isNegative()) {
            throw new IllegalArgumentException("resetAfter must be >= 0, but was " + resetAfter);
        }
    }

    /** A degraded decision: the store was unusable, so the configured answer stands in. */
    public static Decision degraded(boolean allowed) {
        return new Decision(allowed, 0, allowed ? Duration.ZERO : Duration.ofSeconds(1), Duration.ZERO, true);
    }

    /**
     * Decodes a store's answer given in microseconds, where a negative time means never. A negative
     * {@code remaining} (a limit lowered below what its bucket had already spent) is read as 0: a
     * store's state written under other settings must never make a decision fail.
     */
    public static Decision ofMicros(boolean allowed, long remaining, long retryAfterMicros, long resetMicros) {
        return new Decision(allowed, Math.max(0, remaining), micros(retryAfterMicros), micros(resetMicros), false);
    }

    private static Duration micros(long micros) {
        // One Duration made (Duration.of(micros, MICROS) makes three on the way), and by ofNanos, which
        // divides once (ofSeconds normalises its nanoseconds again): every check makes one or two.
        if (micros < 0) {
            return NEVER;
        }
        return micros <= MAX_NANOS_AS_MICROS
                ? Duration.ofNanos(micros * 1000)
                : Duration.ofSeconds(micros / 1_000_000, micros % 1_000_000 * 1000);
    }

    /** The most microseconds whose nanoseconds a long holds (292 years). */
    private static final long MAX_NANOS_AS_MICROS = Long.MAX_VALUE / 1000;
}
