package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.StoreUnavailableException;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisLink;
import java.util.List;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What the Redis stores share: one script per decision, on the bucket's key, answering {@code
 * {allowed 1|0, remaining, retry-after us, until-full us}} (-1: never). Each store says which script
 * and which arguments.
 */
abstract class ScriptedStore implements RateLimitStore {

    private final RedisLink redis;
    private final boolean ownsClient;
    private final LuaScript script;

    ScriptedStore(RedisLink redis, boolean ownsClient, LuaScript script) {
        this.redis = redis;
        this.ownsClient = ownsClient;
        this.script = script;
    }

    /** The script's arguments for {@code policy}. */
    abstract List<String> args(LimitPolicy policy);

    @Override
    public final Decision tryConsume(LimitPolicy policy, String bucketKey) {
        Object reply;
        try {
            reply = redis.eval(script, List.of(bucketKey), args(policy));
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        return Decision.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
    }

    @Override
    public final void close() {
        if (ownsClient) {
            redis.close();
        }
    }

    /** A window store's arguments: {@code limit, window us, cost}. */
    static List<String> windowArgs(LimitPolicy p) {
        return List.of(Long.toString(p.capacity()), Long.toString(p.refillPeriodMicros()), Long.toString(p.cost()));
    }
}
