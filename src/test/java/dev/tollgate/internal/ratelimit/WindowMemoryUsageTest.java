package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * What one client's state costs in Redis ({@code MEMORY USAGE}, bytes per key, key name included),
 * per algorithm: a sliding log grows with the calls it remembers, the other two do not, and each figure is
 * the one the table of {@code src/site/markdown/memory.md} states.
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
        // memory.md's table states these figures: they hold (within 5%, for other Redis 7 builds).
        String row = memoryRow("`token-bucket`");
        assertAbout(readmeBytes(row, "(\\d+) B up to 921 "), bucket, "token bucket: " + row);
        row = memoryRow("`fixed-window`");
        assertAbout(readmeBytes(row, "(\\d[\\d,]*(?:–[\\d,]+)?) B \\|"), fixed, "fixed window: " + row);
        row = memoryRow("`sliding-window`");
        assertAbout(readmeBytes(row, "(\\d[\\d,]*) B at 1 entry"), sliding1, "sliding, 1 entry: " + row);
        assertAbout(readmeBytes(row, "(\\d[\\d,]*) B at 100 "), sliding100, "sliding, 100 entries: " + row);
        assertAbout(readmeBytes(row, "(\\d[\\d,]*) B at 1,000"), sliding1000, "sliding, 1,000 entries: " + row);
    }

    /**
     * A token bucket is one decimal integer, {@code <whole tokens><16 digits of instant>}: up to 921 whole
     * tokens (or a debt of 921) it fits a signed 64-bit integer, which Redis keeps in its 16 B object
     * (issue 11: at most 100 B); up to 12 digits of tokens a 48 B string, beyond that a 64 B one.
     */
    @Test
    void aTokenBucketIsOneIntegerOfAtMost100BytesUpTo921WholeTokens() {
        long none = bucketBytes(1);
        long at921 = bucketBytes(922);
        long at12Digits = bucketBytes(1_000_000_000_000L);
        long atMax = bucketBytes(LimitPolicy.MAX_COUNT);
        System.out.printf(
                "MEMORY USAGE per token bucket: 0 tokens %d B, 921 tokens %d B, 999999999999 tokens %d B,"
                        + " 2^53-1 tokens %d B%n",
                none, at921, at12Digits, atMax);
        assertTrue(at921 <= 100, "921 whole tokens: " + at921 + " B");
        assertEquals(at921, none, "an integer at any count up to 921");
        String row = memoryRow("`token-bucket`");
        assertAbout(readmeBytes(row, "(\\d+) B up to 921 "), at921, "token bucket up to 921: " + row);
        assertAbout(readmeBytes(row, "(\\d+) B up to 12 digits"), at12Digits, "up to 12 digits: " + row);
        assertAbout(readmeBytes(row, "(\\d+) B beyond"), atMax, "beyond: " + row);
    }

    /** Bytes of a token bucket of {@code capacity} after one call of cost 1 (refilling 1 per hour). */
    private static long bucketBytes(long capacity) {
        LimitPolicy p = new LimitPolicy("api", capacity, 1, Duration.ofHours(1), 1);
        String key = StoreKeys.DEFAULT.of("api", "bucket-" + capacity + "-" + System.nanoTime());
        try (RateLimitStore store = RedisRateLimitStore.connect(
                        Algorithm.TOKEN_BUCKET, RedisSettings.of(redis.url(), Timeouts.GENEROUS, 1));
                Jedis j = redis.admin()) {
            assertTrue(store.tryConsume(p, key).allowed());
            return j.memoryUsage(key, 0);
        }
    }

    /** The row of "Memory and key lifetime" ({@code src/site/markdown/memory.md}) for {@code algorithm} (its first, without options). */
    private static String memoryRow(String algorithm) {
        try {
            return Files.readAllLines(Path.of("src", "site", "markdown", "memory.md")).stream()
                    .filter(l -> l.startsWith("| " + algorithm + " |") && (l.contains(" B |") || l.contains(" B at ")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no row of memory.md for " + algorithm));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The figure, or range of figures ({@code 136–152}), that {@code pattern}'s group finds in {@code row}. */
    private static long[] readmeBytes(String row, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(row);
        assertTrue(m.find(), "'" + pattern + "' in " + row);
        String[] range = m.group(1).replace(",", "").split("–");
        return new long[] {Long.parseLong(range[0]), Long.parseLong(range[range.length - 1])};
    }

    private static void assertAbout(long[] stated, long measured, String what) {
        assertTrue(
                measured >= stated[0] - stated[0] / 20 && measured <= stated[1] + stated[1] / 20,
                what + ": measured " + measured + " B, memory.md states " + stated[0] + "–" + stated[1] + " B");
    }

    /** Bytes of one key after {@code calls} admitted calls through a store built by {@code connect}. */
    private static long bytesAfter(Function<RedisSettings, RateLimitStore> connect, int calls) {
        String key = StoreKeys.DEFAULT.of("api", "client-" + calls + "-" + System.nanoTime());
        try (RateLimitStore store = connect.apply(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 1));
                Jedis j = redis.admin()) {
            for (int i = 0; i < calls; i++) {
                assertTrue(store.tryConsume(POLICY, key).allowed());
            }
            return j.memoryUsage(key, 0);
        }
    }
}
