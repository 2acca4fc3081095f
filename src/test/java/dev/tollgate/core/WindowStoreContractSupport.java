package dev.tollgate.core;

import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/** What the window-store contracts share: the store, its clock, and a concurrent load. */
public abstract class WindowStoreContractSupport {

    /** The store under test; the same instance for the whole test. */
    protected abstract RateLimitStore store();

    /** The store's clock, in microseconds. */
    protected abstract long nowMicros();

    /** Lets at least {@code d} pass on the store's clock. */
    protected abstract void elapse(Duration d) throws InterruptedException;

    protected static String freshKey() {
        return BucketKeys.of("contract", UUID.randomUUID().toString());
    }

    /** {@code limit} calls per {@code window}, each costing 1 (refill tokens play no part in windows). */
    protected static LimitPolicy window(long limit, Duration window) {
        return new LimitPolicy("contract", limit, 1, window, 1);
    }

    /** Fires {@code checks} decisions with at most {@code inFlight} outstanding; returns how many passed. */
    protected int admitted(LimitPolicy p, String key, int checks, int inFlight) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        Semaphore slots = new Semaphore(inFlight);
        try {
            List<Future<Boolean>> results = new ArrayList<>(checks);
            for (int i = 0; i < checks; i++) {
                slots.acquire();
                results.add(pool.submit(() -> {
                    try {
                        return store().tryConsume(p, key).allowed();
                    } finally {
                        slots.release();
                    }
                }));
            }
            int allowed = 0;
            for (Future<Boolean> f : results) {
                allowed += f.get() ? 1 : 0;
            }
            return allowed;
        } finally {
            pool.shutdownNow();
        }
    }
}
