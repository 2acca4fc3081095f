package dev.tollgate.internal.concurrency;

import dev.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

class InProcessConcurrencyStoreTest extends ConcurrencyStoreContract {

    private final AtomicLong micros = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessConcurrencyStore store = new InProcessConcurrencyStore(micros::get);

    @Override
    protected ConcurrencyStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return new TestClock() {
            @Override
            public long nowMicros() {
                return micros.get();
            }

            @Override
            public void elapse(Duration d) {
                micros.addAndGet(d.toNanos() / 1000);
            }
        };
    }
}
