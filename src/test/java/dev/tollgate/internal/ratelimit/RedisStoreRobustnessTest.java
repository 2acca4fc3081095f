package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The scripts against extreme settings and against state they did not write themselves: each call
 * is a decision or an error that wrote nothing, never a half-done write, a negative count or a
 * lock-out.
 */
class RedisStoreRobustnessTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisRateLimitStore bucket;
    private static RedisRateLimitStore fixed;
    private static RedisRateLimitStore sliding;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 4));
        bucket = RedisRateLimitStore.tokenBucket(link);
        fixed = RedisRateLimitStore.fixedWindow(link);
        sliding = RedisRateLimitStore.slidingWindow(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    private static String freshKey() {
        return "robust:" + UUID.randomUUID();
    }

    /**
     * Capacity 2^53 refilling 1 per 100 years, half spent at once: until-full is far beyond what
     * {@code PEXPIRE} takes, which failed the script after it had written the spend.
     */
    @Test
    void hugeCapacityTimesPeriodSpendsAndExpiresWithoutAnError() {
        long half = LimitPolicy.MAX_COUNT / 2;
        LimitPolicy p = new LimitPolicy("robust", LimitPolicy.MAX_COUNT, 1, LimitPolicy.MAX_PERIOD, half);
        String key = freshKey();
        Decision d = bucket.tryConsume(p, key);
        assertTrue(d.allowed());
        assertEquals(half, d.remaining(), "counted exactly at 2^53");
        try (Jedis j = redis.admin()) {
            assertTrue(j.pttl(key) > 0, "the key expires: " + j.pttl(key));
        }
        assertEquals(0, bucket.tryConsume(p, key).remaining());
        assertFalse(bucket.tryConsume(p, key).allowed());
    }

    @Test
    void hugeWindowCountsAndExpires() {
        LimitPolicy p = new LimitPolicy("robust", LimitPolicy.MAX_COUNT, 1, LimitPolicy.MAX_PERIOD, 1);
        String key = freshKey();
        assertEquals(LimitPolicy.MAX_COUNT - 1, fixed.tryConsume(p, key).remaining());
        try (Jedis j = redis.admin()) {
            long ttl = j.pttl(key);
            assertTrue(ttl > 0 && ttl <= LimitPolicy.MAX_PERIOD.toMillis(), "pttl " + ttl);
        }
    }

    /** One call of cost 200,000 ran a 381 ms script: above the cap the script refuses before writing. */
    @Test
    void slidingWindowAboveItsCapIsRefusedBeforeAnythingIsWritten() {
        LimitPolicy p = new LimitPolicy("robust", 200_000, 200_000, Duration.ofMinutes(1), 200_000);
        String key = freshKey();
        RuntimeException e = assertThrows(RuntimeException.class, () -> sliding.tryConsume(p, key));
        assertTrue(String.valueOf(rootMessage(e)).contains("bad arguments"), rootMessage(e));
        LimitPolicy costly = new LimitPolicy("robust", 10_000, 10_000, Duration.ofMinutes(1), 1001);
        assertThrows(RuntimeException.class, () -> sliding.tryConsume(costly, key), "a cost above 1000");
        try (Jedis j = redis.admin()) {
            assertFalse(j.exists(key), "nothing written");
        }
        assertEquals(9_000, sliding.tryConsume(costly.withCost(1000), key).remaining(), "1000 in one call is fine");
    }

    @Test
    void scriptsRefuseArgumentsOutOfRangeBeforeWriting() {
        String key = freshKey();
        for (LuaScriptCall call : List.of(
                new LuaScriptCall(RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET), List.of("5", "1", "1000", "6")),
                new LuaScriptCall(
                        RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET), List.of("1e300", "1", "1000", "1")),
                new LuaScriptCall(RedisRateLimitStore.script(Algorithm.FIXED_WINDOW), List.of("5", "0", "1")),
                new LuaScriptCall(RedisRateLimitStore.script(Algorithm.SLIDING_WINDOW), List.of("5", "1000", "1.5")))) {
            assertThrows(RuntimeException.class, () -> link.eval(call.script, List.of(key), call.args));
            try (Jedis j = redis.admin()) {
                assertFalse(j.exists(key), call.script.name() + " " + call.args);
            }
        }
    }

    private record LuaScriptCall(dev.tollgate.internal.redis.LuaScript script, List<String> args) {}

    @Test
    void fixedWindowStateItDidNotWriteDecidesWithinTheSettings() {
        LimitPolicy p = new LimitPolicy("robust", 3, 3, Duration.ofSeconds(1), 1);
        long now = redis.timeMicros();
        for (Map<String, String> state : List.of(
                Map.of("e", Long.toString(now + 500_000), "n", "-5"),
                Map.of("e", Long.toString(now + 86_400_000_000L), "n", "3"),
                Map.of("e", "nan", "n", "3"),
                Map.of("w", "123", "n", "3"))) {
            String key = freshKey();
            try (Jedis j = redis.admin()) {
                j.hset(key, state);
            }
            Decision d = fixed.tryConsume(p, key);
            assertTrue(d.remaining() >= 0 && d.remaining() <= 3, state + ": " + d);
            assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0, state + ": " + d);
        }
    }

    /**
     * A key of another type at a limit's key (something else wrote it, here a list): Redis refuses the
     * call before the script writes anything, and the key is left as it was. (The guard decides that one
     * call, as a data error, not an outage.) A string at a token bucket's key is its own type: see
     * {@code RedisTokenBucketValueTest.aValueTollgateCannotHaveWrittenStartsAFullBucket}.
     */
    @Test
    void keyOfAnotherTypeIsRefusedAndLeftAsItWas() {
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.rpush(key, "someone else's");
            j.pexpire(key, 60_000);
        }
        for (RedisRateLimitStore store : List.of(bucket, fixed, sliding)) {
            LimitPolicy p = new LimitPolicy("robust", 3, 3, Duration.ofSeconds(1), 1);
            RuntimeException e = assertThrows(RuntimeException.class, () -> store.tryConsume(p, key));
            assertTrue(rootMessage(e).contains("WRONGTYPE"), rootMessage(e));
            try (Jedis j = redis.admin()) {
                assertEquals(List.of("someone else's"), j.lrange(key, 0, -1));
                assertTrue(j.pttl(key) > 50_000, "its expiry untouched");
            }
        }
    }

    /** An entry dated a day ahead (another clock, a clock that stepped back) would hold a 1 s window shut. */
    @Test
    void slidingWindowEntryFarAheadIsDropped() {
        LimitPolicy p = new LimitPolicy("robust", 1, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.zadd(key, redis.timeMicros() + 86_400_000_000L, "ahead");
        }
        Decision d = sliding.tryConsume(p, key);
        assertTrue(d.allowed(), d.toString());
        assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0, d.toString());
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
