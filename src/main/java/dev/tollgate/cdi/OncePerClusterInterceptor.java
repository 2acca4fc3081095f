package dev.tollgate.cdi;

import dev.tollgate.OncePerCluster;
import dev.tollgate.internal.config.BeanMethod;
import dev.tollgate.internal.config.LockSpecs;
import dev.tollgate.internal.lock.LockSpec;
import dev.tollgate.internal.lock.OncePerClusterRunner;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.Config;

/**
 * Applies {@link OncePerCluster}: business methods and EJB timeouts alike run only on the server that
 * takes the lock. Outside MicroProfile Fault Tolerance's interceptors, so a retried job retries
 * under one lock.
 */
@OncePerCluster(ttl = "") // members are @Nonbinding; these values are never read
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_AFTER)
public class OncePerClusterInterceptor {

    private static final Map<BeanMethod, LockSpec> SPECS = new ConcurrentHashMap<>();

    @Inject
    OncePerClusterRunner runner;

    @Inject
    Config config;

    @AroundInvoke
    Object aroundInvoke(InvocationContext context) throws Exception {
        return runOnce(context);
    }

    @AroundTimeout
    Object aroundTimeout(InvocationContext context) throws Exception {
        return runOnce(context);
    }

    private Object runOnce(InvocationContext context) throws Exception {
        BeanMethod method = new BeanMethod(context.getTarget().getClass(), context.getMethod());
        LockSpec spec = SPECS.computeIfAbsent(method, m -> new LockSpecs(new MicroProfilePropertySource(config)).of(m));
        return runner.run(spec, context::proceed).value();
    }
}
