package dev.tollgate.internal.concurrency;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisCommands;
import dev.tollgate.internal.redis.RedisException;
import java.util.List;

/**
 * Leases in Redis: one sorted set per store key (lease id scored by its expiry in Redis {@code TIME}
 * microseconds), one script each to take, renew and release a slot.
 */
public final class RedisConcurrencyStore implements ConcurrencyStore {

    private static final LuaScript TAKE = LuaScript.named("concurrency-take");
    private static final LuaScript RENEW = LuaScript.named("concurrency-renew");
    private static final LuaScript RELEASE = LuaScript.named("concurrency-release");

    private final RedisCommands redis;

    private RedisConcurrencyStore(RedisCommands redis) {
        this.redis = redis;
    }

    /** Leases on a client the caller keeps and closes. */
    public static RedisConcurrencyStore using(RedisCommands redis) {
        return new RedisConcurrencyStore(redis);
    }

    @Override
    public Taking take(ConcurrencySpec spec, String storeKey, String leaseId) {
        List<?> r = (List<?>) eval(
                TAKE,
                spec.name(),
                storeKey,
                List.of(Long.toString(spec.maxInFlight()), Long.toString(spec.leaseMillis()), leaseId));
        return new Taking((Long) r.get(0) == 1L, (Long) r.get(1));
    }

    @Override
    public boolean renew(ConcurrencySpec spec, String storeKey, String leaseId) {
        return (Long) eval(RENEW, spec.name(), storeKey, List.of(Long.toString(spec.leaseMillis()), leaseId)) == 1L;
    }

    @Override
    public void release(String storeKey, String leaseId) {
        eval(RELEASE, storeKey, storeKey, List.of(leaseId));
    }

    private Object eval(LuaScript script, String limit, String storeKey, List<String> args) {
        try {
            return redis.eval(script, List.of(storeKey), args);
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not answer for concurrency limit '" + limit + "'", e);
        }
    }
}
