package dev.tollgate.cdi;

import dev.tollgate.OncePerCluster;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.config.LockSpecs;
import dev.tollgate.lock.LockSpec;
import dev.tollgate.lock.OncePerClusterRunner;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.AroundTimeout;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Optional;
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

    private final Map<Method, LockSpec> specs = new ConcurrentHashMap<>();

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
        LockSpec spec = specs.computeIfAbsent(context.getMethod(), m -> resolve(m, context.getTarget()));
        return runner.run(spec, context::proceed).value();
    }

    private LockSpec resolve(Method method, Object target) {
        OncePerCluster annotation = Optional.ofNullable(method.getAnnotation(OncePerCluster.class))
                .or(() -> Optional.ofNullable(method.getDeclaringClass().getAnnotation(OncePerCluster.class)))
                .or(() -> Optional.ofNullable(target.getClass().getAnnotation(OncePerCluster.class)))
                .orElseThrow(() -> new TollgateConfigException("no @OncePerCluster found for " + method));
        return new LockSpecs(new MicroProfilePropertySource(config)).of(annotation, method);
    }
}
