package dev.tollgate.cdi;

import dev.tollgate.LockLost;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.metrics.MicroProfileLockMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * A lock found lost, as the application hears of it: counted ({@code tollgate_lock_lost_total}) and
 * fired as the CDI event {@link LockLost}, to {@code @Observes} observers on the thread that found it
 * (a keep-alive thread, or the job's) and to {@code @ObservesAsync} ones on the container's.
 */
@ApplicationScoped
public class LockLostEvents implements LockLostListener {

    private static final Logger LOG = Logger.getLogger(LockLostEvents.class.getName());

    @Inject
    Event<LockLost> events;

    @Inject
    Instance<MetricRegistry> registries;

    @Override
    public void lockLost(LockLost lost) {
        if (registries.isResolvable()) {
            new MicroProfileLockMetrics(registries.get()).lockLost(lost);
        }
        try {
            events.fire(lost);
        } catch (RuntimeException e) {
            LOG.warning(() -> "Tollgate: an observer of LockLost failed for lock '" + lost.lockName() + "' ("
                    + Failures.describe(e) + ")");
        }
        events.fireAsync(lost);
    }
}
