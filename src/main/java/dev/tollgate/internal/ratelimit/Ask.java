package dev.tollgate.internal.ratelimit;

import java.time.Duration;

/**
 * One limit's question to the decision chain: the charge, its bucket's key, how long the call may wait
 * for its tokens (zero: not at all), and whether it is one part of an {@link Admission} (told to the
 * listener as {@link DecisionListener#onCharged}) or a lone check.
 */
record Ask(Charge charge, String storeKey, Duration maxWait, boolean admission) {

    LimitSpec limit() {
        return charge.limit();
    }

    /** Whether the store reserves tokens to wait for: a token bucket's only, never a shadow limit's. */
    boolean waits() {
        return !maxWait.isZero() && limit().algorithm() == Algorithm.TOKEN_BUCKET && !limit().shadow();
    }
}
