package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisFixedWindowStoreTest extends FixedWindowStoreContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.FIXED_WINDOW, RedisSettings.of(redis.url(), Timeouts.GENEROUS, 32));
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
    void keyHoldsTheWindowsEndAndCountAndExpiresWhenTheWindowEnds() {
        LimitPolicy p = window(10, Duration.ofSeconds(60));
        String key = freshKey();
        long before = redis.timeMicros();
        Decision d = store.tryConsume(p, key);
        try (Jedis j = redis.admin()) {
            Map<String, String> state = j.hgetAll(key);
            assertEquals("1", state.get("n"));
            long end = Long.parseLong(state.get("e"));
            assertEquals(0, end % 60_000_000, "aligned to the clock");
            long decidedAt = end - d.resetAfter().toNanos() / 1000;
            assertTrue(decidedAt >= before && decidedAt <= redis.timeMicros(), "ends when the decision said");
            assertTrue(end - decidedAt <= 60_000_000, "within one window");
            // The expiry as an instant (PEXPIRETIME), not a ttl read some time later: a loaded machine took
            // over 100 ms between the decision and the read of its ttl.
            long expiresAt = j.pexpireTime(key);
            long endMillis = end / 1000;
            assertTrue(
                    expiresAt >= endMillis - 2 && expiresAt <= endMillis + 2,
                    "expires at " + expiresAt + " ms, the window ends at " + endMillis + " ms");
        }
    }

    @Test
    void deniedCallWritesNothing() {
        LimitPolicy p = window(1, Duration.ofSeconds(60));
        String key = freshKey();
        store.tryConsume(p, key);
        try (Jedis j = redis.admin()) {
            Map<String, String> before = j.hgetAll(key);
            store.tryConsume(p, key);
            assertEquals(before, j.hgetAll(key));
        }
    }
}
