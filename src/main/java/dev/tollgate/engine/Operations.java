package dev.tollgate.engine;

import dev.tollgate.Decision;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.core.Guard;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimitStore;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.StoreKeys;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.Subscription;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link RateLimitAdmin} on the stores behind the guard. A reset is told to every server on the Redis
 * channel {@value #CHANNEL}, so each drops the denial it holds for that key; a server that misses the
 * message (its subscription was broken) holds it until its retry-after at most, as Redis keeps no messages.
 */
final class Operations implements RateLimitAdmin, AutoCloseable {

    /** Where resets are announced: {@code forget <store key>}. */
    static final String CHANNEL = "tg:operator";

    private static final String FORGET = "forget ";

    private final Function<String, LimitSpec> limits;
    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;
    private final RateLimiter limiter;
    private final RedisLink redis;
    private final Subscription subscription;
    private final java.util.concurrent.atomic.AtomicLong heard = new java.util.concurrent.atomic.AtomicLong();

    /** @param redis where resets are announced; null in process */
    Operations(
            Function<String, LimitSpec> limits,
            Map<Algorithm, RateLimitStore> stores,
            Guard guard,
            RateLimiter limiter,
            RedisLink redis) {
        this.limits = limits;
        this.stores = stores;
        this.guard = guard;
        this.limiter = limiter;
        this.redis = redis;
        this.subscription =
                redis == null ? null : Subscription.start(redis, CHANNEL, this::heard, Duration.ofSeconds(1));
    }

    @Override
    public Decision peek(String limit, String clientKey) {
        LimitSpec spec = limits.apply(limit);
        String storeKey = StoreKeys.of(spec.algorithm(), spec.name(), clientKey);
        RateLimitStore store = stores.get(spec.algorithm());
        return guard.call(storeKey, () -> store.peek(spec.policy(), storeKey))
                .orElseThrow(() -> new UnsupportedOperationException(
                        "limit '" + limit + "' is kept in this server's memory, where a peek would change it"));
    }

    @Override
    public boolean reset(String limit, String clientKey) {
        LimitSpec spec = limits.apply(limit);
        boolean had = forget(spec, clientKey);
        if (spec.candidate() != null) {
            forget(spec.candidate(), clientKey);
        }
        return had;
    }

    private boolean forget(LimitSpec spec, String clientKey) {
        String storeKey = StoreKeys.of(spec.algorithm(), spec.name(), clientKey);
        RateLimitStore store = stores.get(spec.algorithm());
        boolean had = guard.call(storeKey, () -> store.forget(storeKey));
        limiter.forgetDenials(storeKey);
        if (redis != null) {
            guard.call(storeKey, () -> redis.jedis().publish(CHANNEL, FORGET + storeKey));
        }
        return had;
    }

    private void heard(String message) {
        if (message.startsWith(FORGET)) {
            limiter.forgetDenials(message.substring(FORGET.length()));
            heard.incrementAndGet();
        }
    }

    /** Whether more than {@code count} resets were heard on the channel (this server's own included). */
    boolean heardSince(long count) {
        return heard.get() > count;
    }

    /** Whether this server hears other servers' resets now; always true in process. */
    boolean listening() {
        return subscription == null || subscription.isListening();
    }

    @Override
    public void close() {
        if (subscription != null) {
            subscription.close();
        }
    }
}
