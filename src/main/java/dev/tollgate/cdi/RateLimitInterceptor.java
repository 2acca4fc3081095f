package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.Decision;
import dev.tollgate.RateKey;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimited;
import dev.tollgate.ratelimit.LimitSpec;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Checks a {@link RateLimited} business method's limits before it runs. */
@RateLimited({})
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 10)
public class RateLimitInterceptor {

    private static final Map<Method, Plan> PLANS = new ConcurrentHashMap<>();

    @Inject
    TollgateRuntime runtime;

    @Inject
    Keys keys;

    @Inject
    Instance<FilterMarks> marks;

    @Inject
    Instance<HttpServletRequest> request;

    @Inject
    Instance<Principal> principal;

    /** The limits and the key parameter of one method, found once. */
    private record Plan(String[] limits, int keyParameter) {}

    @AroundInvoke
    public Object check(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        Plan plan = PLANS.computeIfAbsent(method, m -> plan(m, ctx.getTarget().getClass()));
        CallerInfo caller = null;
        for (String name : plan.limits()) {
            if (checkedByFilter(method, name)) {
                continue;
            }
            LimitSpec limit = runtime.limit(name);
            if (caller == null) {
                caller = caller();
            }
            Decision d = runtime.limiter().check(limit, key(plan, ctx, limit, caller));
            if (!d.allowed()) {
                throw new RateLimitExceededException(limit.policy(), d);
            }
        }
        return ctx.proceed();
    }

    private String key(Plan plan, InvocationContext ctx, LimitSpec limit, CallerInfo caller) {
        if (plan.keyParameter() >= 0) {
            Object arg = ctx.getParameters()[plan.keyParameter()];
            if (arg != null) {
                return arg.toString();
            }
        }
        return keys.keyFor(limit, caller);
    }

    private boolean checkedByFilter(Method method, String limit) {
        try {
            return marks.isResolvable() && marks.get().wasChecked(method, limit);
        } catch (ContextNotActiveException noRequest) {
            return false;
        }
    }

    private CallerInfo caller() {
        Optional<CallerInfo> http = Optional.empty();
        try {
            HttpServletRequest r = request.get();
            r.getRemoteAddr();
            http = Optional.of(new HttpCallerInfo(r, runtime.clientAddresses(), null));
        } catch (RuntimeException noRequest) {
            // Not in an HTTP request: ip and header keys have nothing to go on.
        }
        Optional<Principal> p;
        try {
            p = Optional.ofNullable(principal.get())
                    .filter(x -> x.getName() != null && !"UNAUTHENTICATED".equals(x.getName()));
        } catch (RuntimeException none) {
            p = Optional.empty();
        }
        return new InvocationCallerInfo(http, p);
    }

    static Plan plan(Method method, Class<?> targetClass) {
        RateLimited annotation = method.getAnnotation(RateLimited.class);
        if (annotation == null) {
            annotation = findOnType(targetClass);
        }
        String[] limits = annotation == null ? new String[0] : annotation.value();
        int keyParameter = -1;
        Annotation[][] params = method.getParameterAnnotations();
        for (int i = 0; i < params.length; i++) {
            for (Annotation a : params[i]) {
                if (a instanceof RateKey) {
                    keyParameter = i;
                }
            }
        }
        return new Plan(limits, keyParameter);
    }

    private static RateLimited findOnType(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            RateLimited r = c.getAnnotation(RateLimited.class);
            if (r != null) {
                return r;
            }
        }
        return null;
    }
}
