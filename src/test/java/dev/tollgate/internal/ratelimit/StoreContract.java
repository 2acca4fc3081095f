package dev.tollgate.internal.ratelimit;

import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/** What every store contract needs: the store, its clock, fresh keys and a concurrent load. */
public abstract class StoreContract {

    /** The store under test; the same instance for the whole test. */
    protected abstract RateLimitStore store();

    /** The store's own clock: Redis {@code TIME}, or a test clock. */
    protected abstract TestClock clock();

    protected final long nowMicros() {
        return clock().nowMicros();
    }

    protected final void elapse(Duration d) throws InterruptedException {
        clock().elapse(d);
    }

    protected static String freshKey() {
        return StoreKeys.DEFAULT.of("contract", UUID.randomUUID().toString());
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
