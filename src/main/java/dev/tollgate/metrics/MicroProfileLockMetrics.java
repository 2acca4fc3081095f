package dev.tollgate.metrics;

import dev.tollgate.LockLost;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * {@link LockMetrics} as MicroProfile Metrics counters tagged {@code lock=<name>}. Exported by
 * {@code /metrics} as {@code tollgate_lock_acquired_total}, {@code tollgate_lock_held_elsewhere_total},
 * {@code tollgate_lock_unavailable_total} and {@code tollgate_lock_lost_total{lock,reason}}
 * (Prometheus adds {@code _total} to counters).
 */
public final class MicroProfileLockMetrics implements LockMetrics, LockLostListener {

    private static final Metadata ACQUIRED = counter("tollgate_lock_acquired", "Runs that took the lock and ran");
    private static final Metadata HELD =
            counter("tollgate_lock_held_elsewhere", "Runs skipped because another holder had the lock");
    private static final Metadata UNAVAILABLE =
            counter("tollgate_lock_unavailable", "Runs skipped because the lock store could not be asked");

    private static final Metadata LOST =
            counter("tollgate_lock_lost", "Held locks found lost: expired or taken while their holder ran");

    private final MetricRegistry registry;

    public MicroProfileLockMetrics(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void acquired(String lock) {
        count(ACQUIRED, lock);
    }

    @Override
    public void heldElsewhere(String lock) {
        count(HELD, lock);
    }

    @Override
    public void unavailable(String lock) {
        count(UNAVAILABLE, lock);
    }

    @Override
    public void lockLost(LockLost lost) {
        registry.counter(
                        LOST,
                        new Tag("lock", lost.lockName()),
                        new Tag("reason", lost.reason().name().toLowerCase(java.util.Locale.ROOT)))
                .inc();
    }

    private void count(Metadata metadata, String lock) {
        registry.counter(metadata, new Tag("lock", lock)).inc();
    }

    private static Metadata counter(String name, String description) {
        return Metadata.builder().withName(name).withDescription(description).build();
    }
}
