package dev.tollgate.cdi;

import dev.tollgate.ConcurrencyLimits;
import dev.tollgate.Counters;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockAdmin;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.internal.lock.OncePerClusterRunner;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

/**
 * What an application injects: {@link RateLimits} (check a limit from code), {@link Counters} and
 * {@link DistributedLock}, all from the application's {@link dev.tollgate.internal.engine.Engine}, so behind
 * the same budget and breaker as {@code @RateLimited}; and the {@link OncePerClusterRunner} of the
 * {@code @OncePerCluster} interceptor.
 */
@ApplicationScoped
public class TollgateBeans {

    @Inject
    TollgateRuntime runtime;

    @Produces
    @Singleton
    RateLimits rateLimits() {
        return runtime.tollgate();
    }

    @Produces
    @Singleton
    RateLimitAdmin rateLimitAdmin() {
        return runtime.tollgate().admin();
    }

    @Produces
    @Singleton
    LockAdmin lockAdmin() {
        return runtime.tollgate().lockAdmin();
    }

    @Produces
    @Singleton
    ConcurrencyLimits concurrencyLimits() {
        return runtime.tollgate();
    }

    @Produces
    @Singleton
    Counters counters() {
        return runtime.tollgate().counters();
    }

    @Produces
    @Singleton
    DistributedLock distributedLock() {
        return runtime.tollgate().locks();
    }

    @Produces
    @Singleton
    OncePerClusterRunner runner(DistributedLock locks) {
        return new OncePerClusterRunner(locks, runtime.reporter().locks(), System::nanoTime);
    }
}
