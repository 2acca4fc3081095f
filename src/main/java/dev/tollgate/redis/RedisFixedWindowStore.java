package dev.tollgate.redis;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.RateLimitStore;

/**
 * Fixed windows in Redis: one {@code EVALSHA} of {@code fixed-window.lua} per decision. The limit is
 * {@code capacity} (times {@code cost}) per window of {@code refillPeriod}, windows aligned to Redis
 * {@code TIME}; {@code refillTokens} is ignored.
 *
 * <p>Cheap (one small hash per key), but the boundary is blind: {@code capacity} calls just before a
 * window ends and {@code capacity} more just after it all pass, twice the limit within moments.
 */
public final class RedisFixedWindowStore implements RateLimitStore {

    private static final LuaScript SCRIPT = LuaScript.named("fixed-window");

    private final RedisLink redis;
    private final boolean ownsClient;
    private final ScriptedStore store;

    private RedisFixedWindowStore(RedisLink redis, boolean ownsClient) {
        this.redis = redis;
        this.ownsClient = ownsClient;
        this.store = new ScriptedStore(redis, SCRIPT);
    }

    /** A store on its own client, closed with the store. */
    public static RedisFixedWindowStore connect(RedisSettings settings) {
        return new RedisFixedWindowStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisFixedWindowStore using(RedisLink redis) {
        return new RedisFixedWindowStore(redis, false);
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
