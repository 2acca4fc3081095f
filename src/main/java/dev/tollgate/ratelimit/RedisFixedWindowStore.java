package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import java.util.List;

/**
 * Fixed windows in Redis: one {@code EVALSHA} of {@code fixed-window.lua} per decision. The limit is
 * {@code capacity} (times {@code cost}) per window of {@code refillPeriod}, windows aligned to Redis
 * {@code TIME}; {@code refillTokens} is ignored.
 *
 * <p>Cheap (one small hash per key), but the boundary is blind: {@code capacity} calls just before a
 * window ends and {@code capacity} more just after it all pass, twice the limit within moments.
 */
public final class RedisFixedWindowStore extends ScriptedStore {

    private static final LuaScript SCRIPT = LuaScript.named("fixed-window");

    private RedisFixedWindowStore(RedisLink redis, boolean ownsClient) {
        super(redis, ownsClient, SCRIPT);
    }

    /** A store on its own client, closed with the store. */
    public static RedisFixedWindowStore connect(RedisSettings settings) {
        return new RedisFixedWindowStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisFixedWindowStore using(RedisLink redis) {
        return new RedisFixedWindowStore(redis, false);
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
