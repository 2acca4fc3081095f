package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import java.time.Duration;

/**
 * The answer to a waiting check: the decision, and when it allows the call, how long the caller must
 * wait for the tokens it has reserved (zero when they were there).
 *
 * @param decision allowed (the tokens are taken or reserved) or denied (the wait would exceed maxWait)
 * @param delay how long to wait before the call; zero when denied or degraded
 */
public record Reservation(Decision decision, Duration delay) {

    public Reservation {
        if (decision == null || delay == null || delay.isNegative()) {
            throw new IllegalArgumentException("decision and a wait >= 0 are required, but delay was " + delay);
        }
        if (!decision.allowed() && !delay.isZero()) {
            throw new IllegalArgumentException("a denied call waits for nothing, but delay was " + delay);
        }
    }

    /** Decodes a store's answer: {@code {allowed 1|0, remaining, wait or retry-after us, until-full us}}. */
    static Reservation ofMicros(boolean allowed, long remaining, long waitOrRetryMicros, long resetMicros) {
        if (allowed) {
            return new Reservation(
                    Decision.ofMicros(true, Math.max(0, remaining), 0, resetMicros),
                    Duration.ofNanos(Math.max(0, waitOrRetryMicros) * 1000));
        }
        return new Reservation(
                Decision.ofMicros(false, Math.max(0, remaining), waitOrRetryMicros, resetMicros), Duration.ZERO);
    }
}
