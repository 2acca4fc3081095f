package dev.tollgate.internal.counter;

import dev.tollgate.Counters;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisLink;
import java.time.Duration;
import java.util.List;

/**
 * Counters in Redis: {@code INCRBY} and {@code PEXPIRE} in one script ({@code counter.lua}). Behind
 * Tollgate's guard, a hung Redis costs a counter call the budget only until the breaker opens, and then
 * nothing.
 */
public final class RedisCounters implements Counters {

    private static final LuaScript SCRIPT = LuaScript.named("counter");

    private final GuardedRedis redis;
    private final KeyPrefix prefix;

    private RedisCounters(GuardedRedis redis, KeyPrefix prefix) {
        this.redis = redis;
        this.prefix = prefix;
    }

    /** Counters on a client the caller keeps and closes, with no guard. */
    public static RedisCounters using(RedisLink redis) {
        return using(GuardedRedis.unguarded(redis));
    }

    /** Counters on a client the caller keeps and closes, behind its guard. */
    public static RedisCounters using(GuardedRedis redis) {
        return using(redis, KeyPrefix.NONE);
    }

    /** Counters on a client the caller keeps and closes, behind its guard, their keys under {@code prefix}. */
    public static RedisCounters using(GuardedRedis redis, KeyPrefix prefix) {
        return new RedisCounters(redis, prefix);
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        String key = CounterNames.key(prefix, name);
        List<String> args = List.of(Long.toString(by), Long.toString(CounterNames.ttlMillis(name, ttl)));
        return (Long) redis.eval("increment counter '" + name + "'", SCRIPT, List.of(key), args);
    }

    @Override
    public long get(String name) {
        String key = CounterNames.key(prefix, name);
        String v = redis.call(
                "read counter '" + name + "'", key, () -> redis.link().get(key));
        return v == null ? 0 : Long.parseLong(v);
    }
}
