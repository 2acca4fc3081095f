package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;

/**
 * Where buckets live. One call is one atomic decision: read, refill, decide and write happen together
 * or not at all, clocked by the store, never by the caller.
 */
public interface RateLimitStore extends AutoCloseable {

    /**
     * Spends {@code policy.cost()} tokens from the bucket at {@code storeKey} if it holds them.
     *
     * @param storeKey a key from {@link StoreKeys#of}
     * @throws StoreUnavailableException when the store cannot be asked (connection, timeout, server error)
     */
    Decision tryConsume(LimitPolicy policy, String storeKey);

    /**
     * Spends {@code policy.cost()} tokens from the bucket if it holds them, else reserves them when they
     * will have refilled within {@code maxWait}: the bucket then owes them, and every later call queues
     * behind this one. Token buckets only.
     *
     * @return allowed with the wait before the tokens are there (zero when they are), or denied at once
     *     with the retry-after when the wait would exceed {@code maxWait}
     * @throws StoreUnavailableException when the store cannot be asked
     * @throws UnsupportedOperationException for a store of windows, which cannot owe
     */
    default Reservation reserve(LimitPolicy policy, String storeKey, java.time.Duration maxWait) {
        throw new UnsupportedOperationException("only token buckets can reserve tokens for a waiting call");
    }

    /**
     * Gives back {@code returned} tokens of this server's last lease of the bucket and leases it up to
     * {@code want} more, in one atomic step: at most {@code capacity / share} and {@code tokens held /
     * share} (the capacity and refill in force: an operator's override's), at least {@code policy.cost()};
     * a block or a bucket short of the cost denies (leasing nothing, the tokens given back stay given).
     * The lease is written down among the bucket's leases out under {@code terms.holder()}, replacing
     * this server's last; other servers' leases found there past their {@code abandonedAfter} are struck
     * out and their tokens answered as abandoned. Token buckets in Redis only ({@link #leases()}).
     *
     * @throws StoreUnavailableException when the store cannot be asked (the tokens given back may or may not
     *     have come back)
     * @throws UnsupportedOperationException for a store that does not lease
     */
    default Granted lease(LimitPolicy policy, String storeKey, LeaseTerms terms) {
        throw new UnsupportedOperationException("limit '" + policy.name() + "': this store does not lease tokens");
    }

    /** Whether {@link #lease} is answered: a store shared by servers, of token buckets. */
    default boolean leases() {
        return false;
    }

    /**
     * What a call would be told now, spending nothing and writing nothing: for operators.
     *
     * @return empty when this store cannot tell without changing the state
     * @throws StoreUnavailableException when the store cannot be asked
     */
    default java.util.Optional<Decision> peek(LimitPolicy policy, String storeKey) {
        return java.util.Optional.empty();
    }

    /**
     * Gives up to {@code tokens} back to the bucket or window at {@code storeKey}, never beyond full: for
     * operators ({@link dev.tollgate.RateLimitAdmin#credit}).
     *
     * @return the whole tokens credited
     * @throws StoreUnavailableException when the store cannot be asked
     * @throws UnsupportedOperationException when this store does not credit (in process)
     */
    default long credit(LimitPolicy policy, String storeKey, long tokens) {
        throw new UnsupportedOperationException("limit '" + policy.name()
                + "' is kept in this server's memory: credits, overrides and blocks need Redis");
    }

    /**
     * Forgets the bucket or window at {@code storeKey}: the next call finds it full.
     *
     * @return whether there was one
     * @throws StoreUnavailableException when the store cannot be asked
     */
    boolean forget(String storeKey);

    /**
     * Like {@link #tryConsume}, and says what {@link #refund} needs to give an allowed call's tokens back.
     *
     * @throws StoreUnavailableException when the store cannot be asked
     */
    default Spent spend(LimitPolicy policy, String storeKey) {
        return new Spent(tryConsume(policy, storeKey), 0);
    }

    /**
     * Gives back what an allowed {@link #spend} (or a reservation, {@code mark} 0) took, in one atomic
     * step: a token bucket never above its capacity; a window only while the call's window (or its
     * entries) is still there. Giving back twice gives back twice: call it once per allowed spend.
     *
     * @param policy the policy the call was spent under (its cost is what comes back)
     * @param mark the spend's {@link Spent#mark()}
     * @throws StoreUnavailableException when the store cannot be asked (the tokens then stay spent)
     */
    void refund(LimitPolicy policy, String storeKey, long mark);

    /**
     * Like {@link #spend}, for a call that carries an idempotency key, in the same atomic step: when the
     * record {@code replay} holds an admitted call's answer, that answer again ({@link Spent#replayed()}),
     * nothing spent; else the decision, and when it admits the call, the record, kept for {@code window}.
     *
     * @param replay the record's key ({@link StoreKeys#replay}), in {@code storeKey}'s Cluster slot
     * @throws StoreUnavailableException when the store cannot be asked
     * @throws UnsupportedOperationException for a store that keeps no records
     */
    default Spent spend(LimitPolicy policy, String storeKey, String replay, java.time.Duration window) {
        throw new UnsupportedOperationException(
                "limit '" + policy.name() + "': this store keeps no idempotency records");
    }

    /**
     * Like {@link #refund}, and forgets the call's idempotency record {@code replay} (null: none) in the
     * same step: the spend is given back, so a repeat is charged as a new call.
     */
    default void refund(LimitPolicy policy, String storeKey, long mark, String replay) {
        refund(policy, storeKey, mark);
    }

    /**
     * Settles a spend at its actual cost: gives back {@code -delta}, or charges {@code delta} on top (a
     * token bucket into debt; a fixed window past its limit, while it is the call's window), in one
     * atomic step.
     *
     * @param mark the spend's {@link Spent#mark()}
     * @param delta the actual cost minus what was spent, not 0
     * @return whether the store took it (a fixed window that has ended since takes nothing)
     * @throws StoreUnavailableException when the store cannot be asked
     * @throws UnsupportedOperationException for a store that does not settle (a sliding window)
     */
    default boolean settle(LimitPolicy policy, String storeKey, long mark, long delta) {
        throw new UnsupportedOperationException("limit '" + policy.name()
                + "': only a token bucket, a fixed window or a calendar quota settles a call's actual cost");
    }

    /**
     * Like {@link #spend} (with its idempotency record {@code replay} when not null), and when it admits
     * the call, adds its cost to the client's day in {@code usage} (null: none) in the same atomic step.
     */
    default Spent spend(
            LimitPolicy policy, String storeKey, String replay, java.time.Duration window, UsageLedger usage) {
        return replay == null ? spend(policy, storeKey) : spend(policy, storeKey, replay, window);
    }

    /** Like {@link #reserve}, and when it admits the call, adds its cost to the client's {@code usage} day. */
    default Reservation reserve(LimitPolicy policy, String storeKey, java.time.Duration maxWait, UsageLedger usage) {
        return reserve(policy, storeKey, maxWait);
    }

    /** Like {@link #refund(LimitPolicy, String, long, String)}, and takes the cost off the client's {@code usage} day. */
    default void refund(LimitPolicy policy, String storeKey, long mark, String replay, UsageLedger usage) {
        refund(policy, storeKey, mark, replay);
    }

    /** Like {@link #settle(LimitPolicy, String, long, long)}, and adds {@code delta} to the client's {@code usage} day. */
    default boolean settle(LimitPolicy policy, String storeKey, long mark, long delta, UsageLedger usage) {
        return settle(policy, storeKey, mark, delta);
    }

    /** Releases connections and threads. */
    @Override
    void close();
}
