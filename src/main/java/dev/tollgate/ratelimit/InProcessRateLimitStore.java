package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.ExpiringMap;
import dev.tollgate.core.MicrosClock;
import java.util.Optional;

/**
 * Limits in this JVM's memory, with the same arithmetic as the Redis scripts, clocked by the injected
 * clock. Limits are per server: two servers behind a balancer each admit the full capacity.
 */
public final class InProcessRateLimitStore implements RateLimitStore {

    private final Kept<?> kept;

    private <S> InProcessRateLimitStore(MicrosClock clock, InProcessArithmetic<S> arithmetic) {
        this.kept = new Kept<>(new ExpiringMap<>(clock, arithmetic::expiresAt), arithmetic);
    }

    /** Token buckets, as {@code token-bucket.lua}. */
    public static InProcessRateLimitStore tokenBucket(MicrosClock clock) {
        return new InProcessRateLimitStore(clock, new TokenBucketArithmetic());
    }

    /** Fixed windows, as {@code fixed-window.lua}. */
    public static InProcessRateLimitStore fixedWindow(MicrosClock clock) {
        return new InProcessRateLimitStore(clock, new FixedWindowArithmetic());
    }

    /** Sliding window logs, as {@code sliding-window.lua}. */
    public static InProcessRateLimitStore slidingWindow(MicrosClock clock) {
        return new InProcessRateLimitStore(clock, new SlidingWindowArithmetic());
    }

    /** {@code algorithm}'s store. */
    public static InProcessRateLimitStore of(Algorithm algorithm, MicrosClock clock) {
        return switch (algorithm) {
            case TOKEN_BUCKET -> tokenBucket(clock);
            case FIXED_WINDOW -> fixedWindow(clock);
            case SLIDING_WINDOW -> slidingWindow(clock);
        };
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String storeKey) {
        return kept.consume(policy, storeKey);
    }

    /** Number of keys held, expired or not. */
    public int size() {
        return kept.entries().size();
    }

    /** A key's live state, for tests. */
    Optional<?> state(String storeKey) {
        return kept.entries().get(storeKey);
    }

    @Override
    public void close() {
        kept.entries().clear();
    }

    private record Kept<S>(ExpiringMap<S> entries, InProcessArithmetic<S> arithmetic) {
        Decision consume(LimitPolicy policy, String key) {
            return entries.update(key, (live, now) -> arithmetic.consume(live, policy, now));
        }
    }
}
