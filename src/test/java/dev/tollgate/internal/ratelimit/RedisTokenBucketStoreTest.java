package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisTokenBucketStoreTest extends TokenBucketStoreContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.TOKEN_BUCKET, RedisSettings.of(redis.url(), Timeouts.GENEROUS, 32));
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return redis;
    }

    @Test
    void deniedCheckWritesNothingButRefreshesTheExpiry() throws Exception {
        LimitPolicy p = new LimitPolicy("redis", 1, 1, Duration.ofSeconds(10), 1);
        String key = freshKey();
        assertTrue(store.tryConsume(p, key).allowed());
        try (Jedis j = redis.admin()) {
            String before = j.get(key);
            j.pexpire(key, 60_000);
            Decision denied = store.tryConsume(p, key);
            assertFalse(denied.allowed());
            assertEquals(before, j.get(key), "a denial rewrites no state");
            long ttl = j.pttl(key);
            long expected = (denied.resetAfter().toNanos() + 999_999) / 1_000_000 + 1000;
            assertTrue(
                    ttl <= expected && ttl > expected - 1000,
                    "expiry reset to until-full plus 1 s (" + expected + " ms), was " + ttl);
        }
    }

    @Test
    void allowedCheckSetsTheExpiryToUntilFullPlusOneSecond() {
        LimitPolicy p = new LimitPolicy("redis", 10, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.tryConsume(p, key);
        try (Jedis j = redis.admin()) {
            long ttl = j.pttl(key);
            assertTrue(ttl > 1000 && ttl <= 2000, "1 s to refill one token plus 1 s margin, was " + ttl);
        }
    }

    @Test
    void quotaThatNeverRefillsNeverExpires() {
        LimitPolicy p = LimitPolicy.quota("redis", 3);
        String key = freshKey();
        store.tryConsume(p, key);
        try (Jedis j = redis.admin()) {
            assertEquals(-1, j.pttl(key));
        }
    }

    @Test
    void lastRefillInTheFutureWithinAWholeRefillMintsNothing() {
        LimitPolicy p = new LimitPolicy("redis", 5, 1, Duration.ofMinutes(1), 1);
        String key = freshKey();
        long future = redis.timeMicros() + 60_000_000;
        try (Jedis j = redis.admin()) {
            j.set(key, StoredBucket.value(0, future));
            assertFalse(store.tryConsume(p, key).allowed(), "a minute 'ahead' refills nothing");
            j.set(key, StoredBucket.value(1, future));
            Decision d = store.tryConsume(p, key);
            assertTrue(d.allowed());
            assertEquals(0, d.remaining());
            assertEquals(
                    new StoredBucket(0, future),
                    StoredBucket.read(j, key),
                    "the later instant is kept, so no interval is credited twice");
        }
    }

    /** Held to the later instant, state a decade ahead would lock a 5-second bucket for a decade. */
    @Test
    void lastRefillFurtherAheadThanAWholeRefillRefillsFromNow() throws Exception {
        LimitPolicy p = new LimitPolicy("redis", 5, 1, Duration.ofMillis(100), 1);
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.set(key, StoredBucket.value(0, redis.timeMicros() + 315_360_000_000_000L));
        }
        Decision denied = store.tryConsume(p, key);
        assertFalse(denied.allowed());
        assertTrue(denied.retryAfter().compareTo(Duration.ofMillis(100)) <= 0, "retry " + denied.retryAfter());
        redis.elapse(denied.retryAfter());
        assertTrue(store.tryConsume(p, key).allowed(), "refilled from the denied call's instant");
    }

    @Test
    void scriptFlushCostsNoDecision() {
        LimitPolicy p = LimitPolicy.quota("redis", 3);
        String key = freshKey();
        assertEquals(2, store.tryConsume(p, key).remaining());
        try (Jedis j = redis.admin()) {
            j.scriptFlush();
            assertFalse(j.scriptExists(
                    RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).sha1()));
        }
        assertEquals(1, store.tryConsume(p, key).remaining());
        try (Jedis j = redis.admin()) {
            assertTrue(
                    j.scriptExists(
                            RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).sha1()),
                    "reloaded by the fallback");
        }
        assertEquals(0, store.tryConsume(p, key).remaining());
    }

    @Test
    void restartedRedisCostsNoDecision() throws Exception {
        LimitPolicy p = LimitPolicy.quota("redis", 3);
        String key = freshKey();
        // Warm several pooled connections, all of which the restart leaves stale.
        admitted(LimitPolicy.quota("redis", 1000), freshKey(), 200, 8);
        assertEquals(2, store.tryConsume(p, key).remaining());
        redis.restart();
        assertEquals(2, store.tryConsume(p, key).remaining(), "new server, new empty state, no error");
        assertEquals(1, store.tryConsume(p, key).remaining());
        assertEquals(100, admitted(LimitPolicy.quota("redis", 100), freshKey(), 300, 8));
    }
}
