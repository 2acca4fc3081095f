package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

class RedisSlidingWindowStoreTest extends SlidingWindowStoreContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.SLIDING_WINDOW, RedisSettings.of(redis.url(), Timeouts.GENEROUS, 32));
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

    @Override
    protected long newestEntryMicros(String key) {
        try (Jedis j = redis.admin()) {
            List<Tuple> newest = j.zrangeWithScores(key, -1, -1);
            return newest.isEmpty() ? -1 : (long) newest.get(0).getScore();
        }
    }

    @Test
    void deniedCallAddsNoEntry() {
        LimitPolicy p = window(3, Duration.ofSeconds(60));
        String key = freshKey();
        for (int i = 0; i < 3; i++) {
            store.tryConsume(p, key);
        }
        try (Jedis j = redis.admin()) {
            assertEquals(3, j.zcard(key));
            assertFalse(store.tryConsume(p, key).allowed());
            assertFalse(store.tryConsume(p.withCost(2), key).allowed());
            assertEquals(3, j.zcard(key), "rejected calls leave no trace");
        }
    }

    @Test
    void eachUnitOfCostIsOneUniqueEntryAtTheAdmissionTime() {
        LimitPolicy p = window(10, Duration.ofSeconds(60)).withCost(3);
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        try (Jedis j = redis.admin()) {
            List<Tuple> entries = j.zrangeWithScores(key, 0, -1);
            assertEquals(6, entries.size());
            long first = (long) entries.get(0).getScore();
            assertEquals(first + "-1", entries.get(0).getElement());
            assertEquals(first, (long) entries.get(2).getScore(), "one call's units share its time");
            assertTrue((long) entries.get(3).getScore() > first, "the next call is later");
        }
    }

    @Test
    void expiresOneWindowAfterTheNewestEntry() {
        String key = freshKey();
        store.tryConsume(window(10, Duration.ofSeconds(60)), key);
        try (Jedis j = redis.admin()) {
            long ttl = j.pttl(key);
            assertTrue(ttl > 59_000 && ttl <= 60_000, "ttl " + ttl);
        }
    }

    @Test
    void entriesThatLeftTheWindowAreTrimmedByTheNextCall() throws Exception {
        LimitPolicy p = window(10, Duration.ofMillis(200));
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        elapse(Duration.ofMillis(100));
        store.tryConsume(p, key);
        elapse(Duration.ofMillis(120));
        assertEquals(8, store.tryConsume(p, key).remaining(), "the first two left; two remain");
        try (Jedis j = redis.admin()) {
            assertEquals(2, j.zcard(key));
        }
    }
}
