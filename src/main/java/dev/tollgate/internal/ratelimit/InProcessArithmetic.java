package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;

/**
 * One algorithm's arithmetic on a key's state in memory: the same rules as its script, for {@link
 * InProcessRateLimitStore}.
 *
 * @param <S> the state kept per key
 */
interface InProcessArithmetic<S> {

    /**
     * Spends {@code policy.cost()} from {@code live} if it holds it.
     *
     * @param live the key's state, or null when it has none (or it expired)
     * @return the state to keep and the decision
     */
    ExpiringMap.Updated<S, Decision> consume(S live, LimitPolicy policy, long nowMicros);

    /**
     * {@link #consume} as a step that changes a key's state in place, which the map keeps (no {@link
     * ExpiringMap.Updated} per call); null when the arithmetic replaces its states.
     */
    default ExpiringMap.InPlace<S, LimitPolicy, Decision> consumeInPlace() {
        return null;
    }

    /**
     * Like {@link #consume}, but reserves the tokens when they will have refilled within {@code
     * maxWaitMicros}, as {@code token-bucket-reserve.lua} does; token buckets only.
     */
    default ExpiringMap.Updated<S, Reservation> reserve(
            S live, LimitPolicy policy, long nowMicros, long maxWaitMicros) {
        throw new UnsupportedOperationException("only token buckets can reserve tokens for a waiting call");
    }

    /**
     * {@link #consume}, with the mark that {@link #refund} takes to give the call back: a window's end,
     * a log's stamp; 0 for a bucket.
     */
    default ExpiringMap.Updated<S, Spent> spend(S live, LimitPolicy policy, long nowMicros) {
        ExpiringMap.Updated<S, Decision> u = consume(live, policy, nowMicros);
        return new ExpiringMap.Updated<>(u.state(), new Spent(u.answer(), 0));
    }

    /**
     * Gives back what an allowed call spent under {@code mark}, as the algorithm's refund script does.
     *
     * @param live the key's state, or null when it has none (nothing to give back)
     * @return the state to keep (null: none)
     */
    S refund(S live, LimitPolicy policy, long mark);

    /**
     * Settles what an allowed call spent under {@code mark} at {@code delta} more (or less), as the
     * algorithm's settle script does; the answer says whether it was taken.
     */
    default ExpiringMap.Updated<S, Boolean> settle(S live, LimitPolicy policy, long nowMicros, long mark, long delta) {
        throw new UnsupportedOperationException("limit '" + policy.name()
                + "': only a token bucket, a fixed window or a calendar quota settles a call's actual cost");
    }

    /** When {@code state} can be forgotten, since a fresh one would decide the same; {@link Long#MAX_VALUE}: never. */
    long expiresAt(S state);

    /** How much of the store's bound {@code state} takes; 1 unless it grows with what it remembers. */
    default long weight(S state) {
        return 1;
    }
}
