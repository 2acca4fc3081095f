package dev.tollgate.testing;

import dev.tollgate.internal.core.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link Scheduler} on a clock the test drives: {@link #advance} moves the clock (in microseconds)
 * and runs each task at the instants it falls due, in order, on the test's thread.
 */
public final class DrivenScheduler implements Scheduler {

    private final AtomicLong micros;
    private final List<Entry> entries = new ArrayList<>();

    private static final class Entry {
        final long period;
        final Runnable task;
        long next;
        boolean cancelled;

        Entry(long period, Runnable task, long next) {
            this.period = period;
            this.task = task;
            this.next = next;
        }
    }

    public DrivenScheduler(AtomicLong micros) {
        this.micros = micros;
    }

    @Override
    public synchronized Task every(Duration period, Runnable task) {
        long p = Math.max(1, period.toNanos() / 1000);
        Entry e = new Entry(p, task, micros.get() + p);
        entries.add(e);
        return () -> {
            synchronized (this) {
                e.cancelled = true;
            }
        };
    }

    /** Moves the clock by {@code d}, running every task that falls due on the way. */
    public void advance(Duration d) {
        long target = micros.get() + d.toNanos() / 1000;
        while (true) {
            Entry due;
            synchronized (this) {
                entries.removeIf(e -> e.cancelled);
                due = entries.stream()
                        .filter(e -> e.next <= target)
                        .min(Comparator.comparingLong(e -> e.next))
                        .orElse(null);
                if (due == null) {
                    break;
                }
                micros.set(Math.max(micros.get(), due.next));
                due.next += due.period;
            }
            due.task.run();
        }
        micros.set(target);
    }

    /** Tasks not cancelled. */
    public synchronized int running() {
        return (int) entries.stream().filter(e -> !e.cancelled).count();
    }

    @Override
    public synchronized void close() {
        entries.forEach(e -> e.cancelled = true);
    }
}
