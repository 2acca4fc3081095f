package dev.tollgate.counter;

import dev.tollgate.core.Guard;
import dev.tollgate.core.StoreUnavailableException;
import dev.tollgate.redis.LuaScript;
import dev.tollgate.redis.RedisLink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Counters in Redis: {@code INCRBY} and {@code PEXPIRE} in one script ({@code counter.lua}). Every call
 * goes through a {@link Guard}: behind Tollgate's, a hung Redis costs a counter call the budget only
 * until the breaker opens, and then nothing.
 */
public final class RedisCounters implements Counters {

    private static final LuaScript SCRIPT = LuaScript.named("counter");

    private final RedisLink redis;
    private final Guard guard;

    private RedisCounters(RedisLink redis, Guard guard) {
        this.redis = redis;
        this.guard = guard;
    }

    /** Counters on a client the caller keeps and closes, with no guard: each call waits as long as Redis takes. */
    public static RedisCounters using(RedisLink redis) {
        return using(redis, Guard.DIRECT);
    }

    /** Counters on a client the caller keeps and closes, behind {@code guard}. */
    public static RedisCounters using(RedisLink redis, Guard guard) {
        return new RedisCounters(redis, guard);
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        String key = CounterNames.key(name);
        List<String> args = List.of(Long.toString(by), Long.toString(CounterNames.ttlMillis(name, ttl)));
        return call(name, "increment", key, () -> (Long) redis.eval(SCRIPT, List.of(key), args));
    }

    @Override
    public long get(String name) {
        String key = CounterNames.key(name);
        String v = call(name, "read", key, () -> redis.jedis().get(key));
        return v == null ? 0 : Long.parseLong(v);
    }

    private <T> T call(String name, String what, String key, Callable<T> call) {
        return guard.call(key, () -> {
            try {
                return call.call();
            } catch (JedisException e) {
                throw new StoreUnavailableException("Redis did not " + what + " counter '" + name + "'", e);
            }
        });
    }
}
