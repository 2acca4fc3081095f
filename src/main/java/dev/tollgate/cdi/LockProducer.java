package dev.tollgate.cdi;

import dev.tollgate.core.MicrosClock;
import dev.tollgate.lock.DistributedLock;
import dev.tollgate.lock.InProcessDistributedLock;
import dev.tollgate.lock.LockMetrics;
import dev.tollgate.lock.OncePerClusterRunner;
import dev.tollgate.lock.RedisDistributedLock;
import dev.tollgate.metrics.MicroProfileLockMetrics;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.util.logging.Logger;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Produces the {@link DistributedLock} (on Tollgate's Redis, or in process when none is configured)
 * and the {@link OncePerClusterRunner} that the interceptor uses.
 */
@ApplicationScoped
public class LockProducer {

    private static final Logger LOG = Logger.getLogger(LockProducer.class.getName());

    @Inject
    TollgateRuntime runtime;

    @Inject
    Instance<MetricRegistry> registries;

    @Produces
    @Singleton
    DistributedLock distributedLock() {
        return runtime.redis()
                .<DistributedLock>map(link -> {
                    RedisDistributedLock lock = RedisDistributedLock.using(link);
                    lock.checkEvictionPolicy(); // warns at startup when Redis may evict lock keys
                    return lock;
                })
                .orElseGet(() -> {
                    LOG.warning("Tollgate: tollgate.redis.url is not set, so @OncePerCluster locks are kept in this"
                            + " server's memory: they exclude runs within this server only, and every server runs"
                            + " the job");
                    return new InProcessDistributedLock(MicrosClock.system());
                });
    }

    @Produces
    @Singleton
    OncePerClusterRunner runner(DistributedLock locks) {
        LockMetrics metrics =
                registries.isResolvable() ? new MicroProfileLockMetrics(registries.get()) : LockMetrics.NONE;
        return new OncePerClusterRunner(locks, metrics, System::nanoTime);
    }
}
