package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.LockLost;
import dev.tollgate.testing.DrivenScheduler;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/** The contract on one driven clock: the locks' expiry, their handles' validity and the keep-alives. */
class InProcessDistributedLockTest extends DistributedLockContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final DrivenScheduler scheduler = new DrivenScheduler(clock);
    private final List<LockLost> lost = new CopyOnWriteArrayList<>();
    private final InProcessDistributedLock lock = new InProcessDistributedLock(
            clock::get,
            new Keeper(() -> scheduler, lost::add, () -> clock.get() * 1000),
            Duration.ofSeconds(1),
            LockNames.thisProcess());

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
        scheduler.advance(d);
    }

    @Override
    protected List<LockLost> lost() {
        return lost;
    }
}
