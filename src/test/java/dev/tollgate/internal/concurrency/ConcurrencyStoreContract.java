package dev.tollgate.internal.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** What every {@link ConcurrencyStore} must do, asserted exactly, on the store's own clock. */
public abstract class ConcurrencyStoreContract {

    protected abstract ConcurrencyStore store();

    protected abstract TestClock clock();

    protected static String freshKey() {
        return "tg:in:{contract:" + UUID.randomUUID() + "}";
    }

    static ConcurrencySpec spec(long max, Duration lease) {
        return new ConcurrencySpec("contract", max, new KeySpec.Global(), lease, true);
    }

    @Test
    void takesUpToMaxInFlightThenRefuses() {
        String key = freshKey();
        ConcurrencySpec spec = spec(3, Duration.ofSeconds(10));
        for (long i = 1; i <= 3; i++) {
            assertEquals(new ConcurrencyStore.Taking(true, i), store().take(spec, key, "lease-" + i));
        }
        assertEquals(new ConcurrencyStore.Taking(false, 3), store().take(spec, key, "lease-4"));
    }

    @Test
    void releaseFreesTheSlotAndOnlyThatOne() {
        String key = freshKey();
        ConcurrencySpec spec = spec(2, Duration.ofSeconds(10));
        store().take(spec, key, "a");
        store().take(spec, key, "b");
        store().release(key, "a");
        store().release(key, "a");
        store().release(key, "unknown");
        assertEquals(new ConcurrencyStore.Taking(true, 2), store().take(spec, key, "c"));
        assertFalse(store().take(spec, key, "d").taken());
    }

    @Test
    void expiredLeaseFreesItsSlot() throws Exception {
        String key = freshKey();
        // Long enough that the second take comes inside it even on a loaded machine (a 200 ms lease was
        // sometimes over before it); waiting longer than the lease can only make it more expired.
        ConcurrencySpec spec = spec(1, Duration.ofMillis(600));
        assertTrue(store().take(spec, key, "dead-server").taken());
        assertFalse(store().take(spec, key, "other").taken());
        clock().elapse(Duration.ofMillis(650));
        assertEquals(new ConcurrencyStore.Taking(true, 1), store().take(spec, key, "other"));
    }

    @Test
    void renewalKeepsALeasePastItsLength() throws Exception {
        String key = freshKey();
        // Renewed every quarter of a 2 s lease: a renewal fails by chance only if the machine stalls the
        // test for 1.5 s between two of them (a 300 ms lease renewed every 150 ms did on a loaded cluster).
        ConcurrencySpec spec = spec(1, Duration.ofSeconds(2));
        long start = clock().nowMicros();
        store().take(spec, key, "long-call");
        for (int i = 0; i < 5; i++) {
            clock().elapse(Duration.ofMillis(500));
            assertTrue(store().renew(spec, key, "long-call"), "renewal " + i);
        }
        assertTrue(clock().nowMicros() - start > 2_000_000, "the lease's own length has passed");
        assertFalse(store().take(spec, key, "other").taken(), "2.5 s later the renewed 2 s lease still holds");
    }

    @Test
    void renewalOfAnExpiredLeaseFailsAndDoesNotRevive() throws Exception {
        String key = freshKey();
        ConcurrencySpec spec = spec(1, Duration.ofMillis(200));
        store().take(spec, key, "paused");
        clock().elapse(Duration.ofMillis(250));
        assertFalse(store().renew(spec, key, "paused"));
        // The new holder's lease is long: the last take must meet it, however slow the machine.
        assertTrue(store().take(spec(1, Duration.ofSeconds(30)), key, "other").taken());
        assertFalse(store().renew(spec, key, "paused"), "a lease that was let go stays gone");
        assertFalse(store().take(spec, key, "third").taken());
    }

    @Test
    void keysCountApart() {
        ConcurrencySpec spec = spec(1, Duration.ofSeconds(10));
        assertTrue(store().take(spec, freshKey(), "a").taken());
        assertTrue(store().take(spec, freshKey(), "a").taken());
    }

    @Test
    void neverMoreThanMaxInsideWith32InFlight() throws Exception {
        String key = freshKey();
        ConcurrencySpec spec = spec(4, Duration.ofSeconds(10));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> callers = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                int thread = t;
                callers.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < 40; i++) {
                        String id = thread + "-" + i;
                        if (store().take(spec, key, id).taken()) {
                            admitted.incrementAndGet();
                            most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                            Thread.sleep(1);
                            inside.decrementAndGet();
                            store().release(key, id);
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : callers) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(4, most.get(), "never more than 4 inside, and 4 at some point: " + admitted + " admitted");
        assertEquals(new ConcurrencyStore.Taking(true, 1), store().take(spec, key, "after"), "every slot was freed");
    }
}
