package dev.tollgate.redis;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.RateLimitStore;
import dev.tollgate.core.StoreUnavailableException;
import java.util.List;
import redis.clients.jedis.exceptions.JedisException;

/** Token buckets in Redis: one {@code EVALSHA} of {@code token-bucket.lua} per decision. */
public final class RedisTokenBucketStore implements RateLimitStore {

    private static final LuaScript SCRIPT = LuaScript.named("token-bucket");

    private final RedisLink redis;
    private final boolean ownsClient;

    private RedisTokenBucketStore(RedisLink redis, boolean ownsClient) {
        this.redis = redis;
        this.ownsClient = ownsClient;
    }

    /** A store on its own client, closed with the store. */
    public static RedisTokenBucketStore connect(RedisSettings settings) {
        return new RedisTokenBucketStore(RedisClients.create(settings), true);
    }

    /** A store on a client the caller keeps and closes. */
    public static RedisTokenBucketStore using(RedisLink redis) {
        return new RedisTokenBucketStore(redis, false);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        List<String> args = List.of(
                Long.toString(policy.capacity()),
                Long.toString(policy.refillTokens()),
                Long.toString(Math.max(1, policy.refillPeriod().toNanos() / 1000)),
                Long.toString(policy.cost()));
        Object reply;
        try {
            reply = redis.eval(SCRIPT, List.of(bucketKey), args);
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        return Decision.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
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
