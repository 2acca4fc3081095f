package dev.tollgate.cdi;

import dev.tollgate.ConcurrencyLimits;
import dev.tollgate.Counters;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockAdmin;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.lock.OncePerClusterRunner;
import dev.tollgate.spi.KeyResolver;
import dev.tollgate.spi.PlanResolver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.servlet.http.HttpServletRequest;

/**
 * What an application injects: {@link RateLimits} (check a limit from code), {@link Counters} and
 * {@link DistributedLock}, all from the application's {@link dev.tollgate.internal.engine.Engine}, so behind
 * the same budget and breaker as {@code @RateLimited}; and the {@link OncePerClusterRunner} of the
 * {@code @OncePerCluster} interceptor. And, for Tollgate's own adapters, the engine and what every limited
 * request and call asks ({@link Charges}, {@link ClientKeys}, {@link RequestMarks}) as singletons: an
 * application-scoped bean is injected as a client proxy, which Weld calls through reflection (in a Liberty
 * request, that proxy call was a third of the interceptor's time on a call the filter had checked, JFR).
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

    /** The engine itself, for Tollgate's own adapters (internal: applications inject the API's types). */
    @Produces
    @Singleton
    @Typed(Engine.class)
    Engine engine() {
        return runtime.tollgate();
    }

    @Produces
    @Singleton
    ClientKeys clientKeys(@Any Instance<KeyResolver> resolvers) {
        return new ClientKeys(resolvers);
    }

    @Produces
    @Singleton
    Charges charges(ClientKeys keys, @Any Instance<PlanResolver> plans) {
        return new Charges(keys, plans);
    }

    @Produces
    @Singleton
    RequestMarks requestMarks(Instance<HttpServletRequest> request) {
        return new RequestMarks(request);
    }

    @Produces
    @Singleton
    OncePerClusterRunner runner(DistributedLock locks) {
        return new OncePerClusterRunner(locks, runtime.reporter().locks(), System::nanoTime);
    }
}
