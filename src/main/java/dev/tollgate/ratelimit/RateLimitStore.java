package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.StoreUnavailableException;

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

    /** Releases connections and threads. */
    @Override
    void close();
}
