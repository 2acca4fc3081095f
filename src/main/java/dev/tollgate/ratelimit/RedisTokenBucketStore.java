package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import java.util.List;

/** Token buckets in Redis: one {@code EVALSHA} of {@code token-bucket.lua} per decision. */
public final class RedisTokenBucketStore extends ScriptedStore {

    private static final LuaScript SCRIPT = LuaScript.named("token-bucket");

    private RedisTokenBucketStore(RedisLink redis, boolean ownsClient) {
        super(redis, ownsClient, SCRIPT);
    }

    /** A store on its own client, closed with the store. */
    public static RedisTokenBucketStore connect(RedisSettings settings) {
        return new RedisTokenBucketStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisTokenBucketStore using(RedisLink redis) {
        return new RedisTokenBucketStore(redis, false);
    }

    /** The script this store runs, for tests and tools that inspect Redis. */
    public static LuaScript script() {
        return SCRIPT;
    }

    @Override
    List<String> args(LimitPolicy p) {
        return List.of(
                Long.toString(p.capacity()),
                Long.toString(p.refillTokens()),
                Long.toString(p.refillPeriodMicros()),
                Long.toString(p.cost()));
    }
}
