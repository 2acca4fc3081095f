package dev.tollgate.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * What one client's state costs in Redis ({@code MEMORY USAGE}, bytes per key, key name included),
 * per algorithm. The figures are printed for the README; the assertions hold the shape that the
 * README states: a sliding log grows with the calls it remembers, the other two do not.
 */
class WindowMemoryUsageTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final LimitPolicy POLICY = new LimitPolicy("api", 1000, 1000, Duration.ofMinutes(1), 1);

    @Test
    void slidingLogGrowsWithItsEntriesWhileBucketAndFixedWindowStaySmall() {
        long bucket = bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.TOKEN_BUCKET, s), 100);
        long fixed = bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.FIXED_WINDOW, s), 100);
        long sliding1 = bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.SLIDING_WINDOW, s), 1);
        long sliding100 = bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.SLIDING_WINDOW, s), 100);
        // Past zset-max-listpack-entries (128) the sorted set becomes a skip list and a hash table.
        long sliding1000 = bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.SLIDING_WINDOW, s), 1000);
        System.out.printf(
                "MEMORY USAGE per key: token bucket %d B, fixed window %d B, sliding window %d B at 1 entry,"
                        + " %d B at 100 entries, %d B at 1000 entries%n",
                bucket, fixed, sliding1, sliding100, sliding1000);
        assertEquals(
                fixed,
                bytesAfter(s -> RedisRateLimitStore.connect(Algorithm.FIXED_WINDOW, s), 1),
                "a fixed window does not grow");
        assertTrue(sliding100 > 10 * fixed, "100 entries cost over ten fixed windows");
    }

    /** Bytes of one key after {@code calls} admitted calls through a store built by {@code connect}. */
    private static long bytesAfter(Function<RedisSettings, RateLimitStore> connect, int calls) {
        String key = StoreKeys.of("api", "client-" + calls + "-" + System.nanoTime());
        try (RateLimitStore store = connect.apply(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 1));
                Jedis j = redis.admin()) {
            for (int i = 0; i < calls; i++) {
                assertTrue(store.tryConsume(POLICY, key).allowed());
            }
            return j.memoryUsage(key, 0);
        }
    }
}
