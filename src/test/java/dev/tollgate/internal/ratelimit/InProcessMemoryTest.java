package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * What one client key costs in this JVM's heap, per in-process store (key string, map node and
 * state): printed for the README, which states the default bound's heap from these figures.
 */
class InProcessMemoryTest {

    private static final int KEYS = 20_000;

    @Test
    void bytesPerKeyOfEachInProcessStore() {
        LimitPolicy bucket = LimitPolicy.of("api", 100, 10, Duration.ofMinutes(1));
        LimitPolicy window = new LimitPolicy("api", 100, 100, Duration.ofMinutes(1), 1);
        long tb = bytesPerKey(n -> InProcessRateLimitStore.of(Algorithm.TOKEN_BUCKET, new ManualClock(), n), bucket, 1);
        long fw = bytesPerKey(n -> InProcessRateLimitStore.of(Algorithm.FIXED_WINDOW, new ManualClock(), n), window, 1);
        long sw1 = bytesPerKey(
                n -> InProcessRateLimitStore.of(Algorithm.SLIDING_WINDOW, new ManualClock(), n * 2), window, 1);
        long sw10 = bytesPerKey(
                n -> InProcessRateLimitStore.of(Algorithm.SLIDING_WINDOW, new ManualClock(), n * 11), window, 10);
        System.out.printf(
                "in-process heap per key: token bucket %d B, fixed window %d B, sliding window %d B at 1 entry,"
                        + " %d B at 10 entries%n",
                tb, fw, sw1, sw10);
        // The README's table ("in process, per key"), measured on HotSpot 17 with compressed oops: a token
        // bucket and a fixed window about 200 B, a sliding window about 265 B plus about 10 B per entry. The
        // bounds allow 25 % either way for another JVM's object layout (headers, alignment), never the
        // double that an extra object per key would cost.
        assertWithin(tb, 160, 290, "token bucket");
        assertWithin(fw, 140, 260, "fixed window");
        assertWithin(sw1, 200, 340, "sliding window at 1 entry");
        assertWithin((sw10 - sw1) / 9, 6, 14, "sliding window per entry");
    }

    private static void assertWithin(long bytes, long min, long max, String what) {
        assertTrue(bytes >= min && bytes <= max, what + ": " + bytes + " B per key, expected " + min + "-" + max);
    }

    /** Heap held by {@code KEYS} keys after {@code calls} admitted calls each, per key. */
    private static long bytesPerKey(IntFunction<RateLimitStore> create, LimitPolicy p, int calls) {
        RateLimitStore store = create.apply(KEYS);
        long before = usedAfterGc();
        for (int i = 0; i < KEYS; i++) {
            String key = StoreKeys.DEFAULT.of("api", "client-" + i);
            for (int c = 0; c < calls; c++) {
                store.tryConsume(p, key);
            }
        }
        long after = usedAfterGc();
        assertEquals(KEYS, sizeOf(store), "nothing evicted while measuring");
        store.close();
        return (after - before) / KEYS;
    }

    private static int sizeOf(RateLimitStore store) {
        return ((InProcessRateLimitStore) store).size();
    }

    private static long usedAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
