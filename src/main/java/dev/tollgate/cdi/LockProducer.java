package dev.tollgate.cdi;

import dev.tollgate.LockLost;
import dev.tollgate.core.Guard;
import dev.tollgate.core.MicrosClock;
import dev.tollgate.lock.DistributedLock;
import dev.tollgate.lock.InProcessDistributedLock;
import dev.tollgate.lock.LockLostListener;
import dev.tollgate.lock.LockMetrics;
import dev.tollgate.lock.OncePerClusterRunner;
import dev.tollgate.lock.RedisDistributedLock;
import dev.tollgate.metrics.MicroProfileLockMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Produces the {@link DistributedLock} (on Tollgate's Redis, or in process when none is configured)
 * and the {@link OncePerClusterRunner} that the interceptor uses. A lock found lost is counted and
 * fired as the CDI event {@link LockLost}, to synchronous observers on the thread that found it and to
 * asynchronous ones on the container's.
 */
@ApplicationScoped
public class LockProducer {

    private static final Logger LOG = Logger.getLogger(LockProducer.class.getName());

    @Inject
    TollgateRuntime runtime;

    @Inject
    Instance<MetricRegistry> registries;

    @Inject
    Event<LockLost> lostEvents;

    @Produces
    @Singleton
    DistributedLock distributedLock() {
        LockLostListener listener = lostListener();
        return runtime.redis()
                .<DistributedLock>map(redis -> RedisDistributedLock.using(redis, Guard.DIRECT, listener))
                .orElseGet(() -> {
                    LOG.warning("Tollgate: tollgate.redis.url is not set, so @OncePerCluster locks are kept in"
                            + " this server's memory: they exclude runs within this server only, and every"
                            + " server runs the job");
                    return new InProcessDistributedLock(MicrosClock.system(), listener);
                });
    }

    /** Stops keep-alives and release notices when the application stops. */
    void close(@Disposes DistributedLock locks) {
        locks.close();
    }

    @Produces
    @Singleton
    OncePerClusterRunner runner(DistributedLock locks) {
        LockMetrics metrics = metrics().<LockMetrics>map(m -> m).orElse(LockMetrics.NONE);
        return new OncePerClusterRunner(locks, metrics, System::nanoTime);
    }

    private Optional<MicroProfileLockMetrics> metrics() {
        return registries.isResolvable()
                ? Optional.of(new MicroProfileLockMetrics(registries.get()))
                : Optional.empty();
    }

    private LockLostListener lostListener() {
        Optional<MicroProfileLockMetrics> metrics = metrics();
        return lost -> {
            metrics.ifPresent(m -> m.lockLost(lost));
            try {
                lostEvents.fire(lost);
            } catch (RuntimeException e) {
                LOG.log(
                        Level.WARNING,
                        e,
                        () -> "Tollgate: an observer of LockLost failed for lock '" + lost.lockName() + "'");
            }
            lostEvents.fireAsync(lost);
        };
    }
}
