package dev.tollgate.core;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;

/** The decision core: a client key and a policy in, a decision out. Knows nothing of HTTP or CDI. */
public final class RateLimiter {

    private final RateLimitStore store;

    public RateLimiter(RateLimitStore store) {
        this.store = store;
    }

    /** Spends {@code policy.cost()} tokens from {@code clientKey}'s bucket if it holds them. */
    public Decision check(LimitPolicy policy, String clientKey) {
        return store.tryConsume(policy, BucketKeys.of(policy.name(), clientKey));
    }
}
