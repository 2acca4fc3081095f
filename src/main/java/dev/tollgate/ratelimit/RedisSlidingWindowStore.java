package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import java.util.List;

/**
 * Sliding window logs in Redis: one {@code EVALSHA} of {@code sliding-window.lua} per decision. At most
 * {@code capacity} (times {@code cost}) calls are admitted within any {@code refillPeriod}, measured on
 * Redis {@code TIME}; {@code refillTokens} is ignored.
 *
 * <p>Exact at every instant, at the price of one sorted-set entry per admitted unit of cost for the
 * whole window: right for an API whose limit must hold at a boundary, wasteful for a login form.
 */
public final class RedisSlidingWindowStore extends ScriptedStore {

    private static final LuaScript SCRIPT = LuaScript.named("sliding-window");

    private RedisSlidingWindowStore(RedisLink redis, boolean ownsClient) {
        super(redis, ownsClient, SCRIPT);
    }

    /** A store on its own client, closed with the store. */
    public static RedisSlidingWindowStore connect(RedisSettings settings) {
        return new RedisSlidingWindowStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisSlidingWindowStore using(RedisLink redis) {
        return new RedisSlidingWindowStore(redis, false);
    }

    /** The script this store runs, for tests and tools that inspect Redis. */
    public static LuaScript script() {
        return SCRIPT;
    }

    @Override
    List<String> args(LimitPolicy p) {
        return windowArgs(p);
    }
}
