package dev.tollgate.redis;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.StoreUnavailableException;
import java.util.List;
import redis.clients.jedis.exceptions.JedisException;

/**
 * What the window stores share: one script per decision with arguments {@code limit, window us,
 * cost}, answering {@code {allowed, remaining, retry-after us, reset us}}.
 */
final class ScriptedStore {

    private final RedisLink redis;
    private final LuaScript script;

    ScriptedStore(RedisLink redis, LuaScript script) {
        this.redis = redis;
        this.script = script;
    }

    Decision decide(LimitPolicy policy, String key) {
        List<String> args = List.of(
                Long.toString(policy.capacity()),
                Long.toString(Math.max(1, policy.refillPeriod().toNanos() / 1000)),
                Long.toString(policy.cost()));
        Object reply;
        try {
            reply = redis.eval(script, List.of(key), args);
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not decide for limit '" + policy.name() + "'", e);
        }
        List<?> r = (List<?>) reply;
        return Decision.ofMicros((Long) r.get(0) == 1L, (Long) r.get(1), (Long) r.get(2), (Long) r.get(3));
    }
}
