package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.core.Guard;
import dev.tollgate.core.StoreUnavailableException;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The decision core: a limit and a client key in, a decision out. The store decides, the guard bounds
 * how long that may take, and when the store cannot be asked the limit's degraded decision stands in.
 * Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;

    /** @param stores a store for each algorithm the limits use */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this.stores = new EnumMap<>(stores);
        this.guard = guard;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    /** A limiter of token buckets in {@code store}. */
    public RateLimiter(RateLimitStore store, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this(Map.of(Algorithm.TOKEN_BUCKET, store), guard, listener, nanoTime);
    }

    /** A limiter of token buckets in a store in this JVM: no guard, no listener. */
    public static RateLimiter direct(RateLimitStore store) {
        return new RateLimiter(store, Guard.DIRECT, DecisionListener.NONE, System::nanoTime);
    }

    /** Spends the limit's cost from {@code clientKey}'s bucket if it holds it. */
    public Decision check(LimitSpec limit, String clientKey) {
        long start = nanoTime.getAsLong();
        String storeKey = StoreKeys.of(limit.algorithm(), limit.name(), clientKey);
        RateLimitStore store = stores.get(limit.algorithm());
        if (store == null) {
            throw new IllegalStateException("no store for " + limit.algorithm().configName() + " limits");
        }
        Decision d;
        try {
            d = guard.call(storeKey, () -> store.tryConsume(limit.policy(), storeKey));
        } catch (StoreUnavailableException e) {
            d = Decision.degraded(limit.failOpen());
        }
        listener.onDecision(limit, d, nanoTime.getAsLong() - start);
        return d;
    }
}
