package dev.tollgate.internal.ratelimit;

import java.time.Duration;

/**
 * One limit's question to the decision chain: the charge, its bucket's key, how long the call may wait
 * for its tokens (zero: not at all), its idempotency key (null: none), and whether it is one part of an {@link Admission} (told to the
 * listener as {@link DecisionListener#onCharged}) or a lone check.
 */
record Ask(Charge charge, String storeKey, Duration maxWait, boolean admission, Repeat repeat) {

    /** A question that is no repeat. */
    Ask(Charge charge, String storeKey, Duration maxWait, boolean admission) {
        this(charge, storeKey, maxWait, admission, null);
    }

    /**
     * The key of the call's idempotency record beside its bucket ({@link StoreKeys#replay}): when the call
     * carries an idempotency key and the limit keeps records; null otherwise.
     */
    String replay() {
        return repeat == null || limit().idempotencyWindow() == null ? null : StoreKeys.replay(storeKey, repeat);
    }

    LimitSpec limit() {
        return charge.limit();
    }

    /** Whether the store reserves tokens to wait for: a token bucket's only, never a shadow limit's. */
    boolean waits() {
        return !maxWait.isZero() && limit().algorithm() == Algorithm.TOKEN_BUCKET && !limit().shadow();
    }
}
