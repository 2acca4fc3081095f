package dev.tollgate.core;

import dev.tollgate.Decision;
import java.util.function.LongSupplier;

/**
 * The decision core: a limit and a client key in, a decision out. The store decides, the guard bounds
 * how long that may take, and when the store cannot be asked the limit's degraded decision stands in.
 * Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    private final RateLimitStore store;
    private final Guard guard;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;

    public RateLimiter(RateLimitStore store, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this.store = store;
        this.guard = guard;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    /** A limiter on a store in this JVM: no guard, no listener. */
    public static RateLimiter direct(RateLimitStore store) {
        return new RateLimiter(store, Guard.DIRECT, DecisionListener.NONE, System::nanoTime);
    }

    /** Spends the limit's cost from {@code clientKey}'s bucket if it holds it. */
    public Decision check(LimitSpec limit, String clientKey) {
        long start = nanoTime.getAsLong();
        String key = BucketKeys.of(limit.name(), clientKey);
        Decision d = guard.call(() -> store.tryConsume(limit.policy(), key))
                .orElseGet(() -> Decision.degraded(limit.failOpen()));
        listener.onDecision(limit, d, nanoTime.getAsLong() - start);
        return d;
    }
}
