package dev.tollgate.testing;

import dev.tollgate.internal.core.MicrosClock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told: the in-process stores' time in tests. */
public final class ManualClock implements TestClock, MicrosClock {

    private final AtomicLong micros = new AtomicLong(1_700_000_000_000_000L);

    @Override
    public long nowMicros() {
        return micros.get();
    }

    @Override
    public void elapse(Duration d) {
        micros.addAndGet(d.toNanos() / 1000);
    }

    /** Moves by {@code delta} microseconds, backwards too. */
    public void add(long delta) {
        micros.addAndGet(delta);
    }
}
