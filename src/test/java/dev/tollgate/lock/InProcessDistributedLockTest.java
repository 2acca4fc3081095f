package dev.tollgate.lock;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

class InProcessDistributedLockTest extends DistributedLockContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessDistributedLock lock = new InProcessDistributedLock(clock::get);

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected long nowMicros() {
        return clock.get();
    }

    @Override
    protected void elapse(Duration d) {
        clock.addAndGet(d.toNanos() / 1000);
    }
}
