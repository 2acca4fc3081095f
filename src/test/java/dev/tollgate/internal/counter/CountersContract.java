package dev.tollgate.internal.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tollgate.Counters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** What every {@link Counters} must do, asserted exactly. */
public abstract class CountersContract {

    protected abstract Counters counters();

    /** Lets at least {@code d} pass on the store's clock. */
    protected abstract void elapse(Duration d) throws InterruptedException;

    protected static String freshName() {
        return "contract:" + UUID.randomUUID();
    }

    @Test
    void incrementReturnsTheNewValue() {
        String name = freshName();
        assertEquals(0, counters().get(name));
        assertEquals(1, counters().increment(name, 1, Duration.ofMinutes(1)));
        assertEquals(6, counters().increment(name, 5, Duration.ofMinutes(1)));
        assertEquals(4, counters().increment(name, -2, Duration.ofMinutes(1)));
        assertEquals(4, counters().get(name));
    }

    @Test
    void laterIncrementsDoNotPushTheExpiryBack() throws Exception {
        String name = freshName();
        counters().increment(name, 1, Duration.ofMillis(300));
        elapse(Duration.ofMillis(150));
        assertEquals(2, counters().increment(name, 1, Duration.ofMillis(300)));
        elapse(Duration.ofMillis(200));
        assertEquals(0, counters().get(name), "expired 300 ms after the first increment");
        assertEquals(1, counters().increment(name, 1, Duration.ofMillis(300)), "a new counter");
    }

    @Test
    void exactUnder32Threads() throws Exception {
        String name = freshName();
        int perThread = 250;
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                results.add(pool.submit(() -> {
                    List<Long> seen = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        seen.add(counters().increment(name, 1, Duration.ofMinutes(1)));
                    }
                    return seen;
                }));
            }
            Set<Long> values = new HashSet<>();
            for (Future<List<Long>> f : results) {
                values.addAll(f.get());
            }
            assertEquals(32 * perThread, counters().get(name));
            assertEquals(32 * perThread, values.size(), "every increment saw its own new value");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void ttlMustBePositiveAndNameKeySafe() {
        assertEquals(
                "counter 'c': ttl must be > 0, but was PT0S",
                assertThrows(IllegalArgumentException.class, () -> counters().increment("c", 1, Duration.ZERO))
                        .getMessage());
        assertEquals(
                "counter name must be 1-200 letters, digits, '_', '.', ':' or '-', but was 'a b'",
                assertThrows(IllegalArgumentException.class, () -> counters()
                                .increment("a b", 1, Duration.ofSeconds(1)))
                        .getMessage());
    }
}
