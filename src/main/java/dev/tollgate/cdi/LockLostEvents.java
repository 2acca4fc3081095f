package dev.tollgate.cdi;

import dev.tollgate.LockLost;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.lock.LockLostListener;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import java.util.logging.Logger;

/**
 * A lock found lost, as the application hears of it (the reporters count it, {@link TollgateRuntime}):
 * fired as the CDI event {@link LockLost}, to {@code @Observes} observers on the thread that found it
 * (a keep-alive thread, or the job's) and to {@code @ObservesAsync} ones on the container's.
 */
@ApplicationScoped
public class LockLostEvents implements LockLostListener {

    private static final Logger LOG = Logger.getLogger(LockLostEvents.class.getName());

    @Inject
    Event<LockLost> events;

    @Override
    public void lockLost(LockLost lost) {
        try {
            events.fire(lost);
        } catch (RuntimeException e) {
            LOG.warning(() -> "Tollgate: an observer of LockLost failed for lock '" + lost.lockName() + "' ("
                    + Failures.describe(e) + ")");
        }
        events.fireAsync(lost);
    }
}
