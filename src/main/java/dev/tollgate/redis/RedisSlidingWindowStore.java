package dev.tollgate.redis;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.RateLimitStore;

/**
 * Sliding window logs in Redis: one {@code EVALSHA} of {@code sliding-window.lua} per decision. At most
 * {@code capacity} (times {@code cost}) calls are admitted within any {@code refillPeriod}, measured on
 * Redis {@code TIME}; {@code refillTokens} is ignored.
 *
 * <p>Exact at every instant, at the price of one sorted-set entry per admitted unit of cost for the
 * whole window: right for an API whose limit must hold at a boundary, wasteful for a login form.
 */
public final class RedisSlidingWindowStore implements RateLimitStore {

    private static final LuaScript SCRIPT = LuaScript.named("sliding-window");

    private final RedisLink redis;
    private final boolean ownsClient;
    private final ScriptedStore store;

    private RedisSlidingWindowStore(RedisLink redis, boolean ownsClient) {
        this.redis = redis;
        this.ownsClient = ownsClient;
        this.store = new ScriptedStore(redis, SCRIPT);
    }

    /** A store on its own client, closed with the store. */
    public static RedisSlidingWindowStore connect(RedisSettings settings) {
        return new RedisSlidingWindowStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisSlidingWindowStore using(RedisLink redis) {
        return new RedisSlidingWindowStore(redis, false);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        return store.decide(policy, bucketKey);
    }

    /** The script this store runs, for tests and tools that inspect Redis. */
    public static LuaScript script() {
        return SCRIPT;
    }

    @Override
    public void close() {
        if (ownsClient) {
            redis.close();
        }
    }
}
