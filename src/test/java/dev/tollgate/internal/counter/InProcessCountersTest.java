package dev.tollgate.internal.counter;

import dev.tollgate.Counters;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

class InProcessCountersTest extends CountersContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessCounters counters = new InProcessCounters(clock::get);

    @Override
    protected Counters counters() {
        return counters;
    }

    @Override
    protected void elapse(Duration d) {
        clock.addAndGet(d.toNanos() / 1000);
    }
}
