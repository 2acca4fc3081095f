package dev.tollgate.counter;

import dev.tollgate.core.StoreUnavailableException;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisLink;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.exceptions.JedisException;

/** Counters in Redis: {@code INCRBY} and {@code PEXPIRE} in one script ({@code counter.lua}). */
public final class RedisCounters implements Counters {

    private static final LuaScript SCRIPT = LuaScript.named("counter");

    private final RedisLink redis;

    private RedisCounters(RedisLink redis) {
        this.redis = redis;
    }

    /** Counters on a client the caller keeps and closes. */
    public static RedisCounters using(RedisLink redis) {
        return new RedisCounters(redis);
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        String key = CounterNames.key(name);
        List<String> args = List.of(Long.toString(by), Long.toString(CounterNames.ttlMillis(name, ttl)));
        try {
            return (Long) redis.eval(SCRIPT, List.of(key), args);
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not increment counter '" + name + "'", e);
        }
    }

    @Override
    public long get(String name) {
        String key = CounterNames.key(name);
        try {
            String v = redis.jedis().get(key);
            return v == null ? 0 : Long.parseLong(v);
        } catch (JedisException e) {
            throw new StoreUnavailableException("Redis did not read counter '" + name + "'", e);
        }
    }
}
