package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.internal.core.MicrosClock;
import org.junit.jupiter.api.AfterEach;

/** Waiting on the in-process lock: one JVM, so the "other server" is the same lock. */
class InProcessLockWaitingTest extends LockWaitingContract {

    private final MicrosClock clock = MicrosClock.system();
    private final InProcessDistributedLock lock = new InProcessDistributedLock(clock);

    @AfterEach
    void close() {
        lock.close();
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected DistributedLock otherServer() {
        return lock;
    }

    @Override
    protected long storeMicros() {
        return clock.nowMicros();
    }
}
