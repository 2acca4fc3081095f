package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.Decision;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimited;
import dev.tollgate.config.BeanMethod;
import dev.tollgate.config.RateLimitPlans;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.LimitSpec;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Method;
import java.security.Principal;
import java.util.Optional;

/** Checks a {@link RateLimited} business method's limits before it runs. */
@RateLimited({})
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 10)
public class RateLimitInterceptor {

    @Inject
    TollgateRuntime runtime;

    @Inject
    ClientKeys keys;

    @Inject
    Instance<FilterMarks> marks;

    @Inject
    Instance<HttpServletRequest> request;

    @Inject
    Instance<Principal> principal;

    @AroundInvoke
    public Object check(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        RateLimitPlans.Plan plan =
                RateLimitPlans.of(new BeanMethod(ctx.getTarget().getClass(), method));
        Tollgate tollgate = runtime.tollgate();
        CallerInfo caller = null;
        for (String name : plan.limits()) {
            if (checkedByFilter(method, name)) {
                continue;
            }
            LimitSpec limit = tollgate.limit(name);
            if (caller == null) {
                caller = caller(tollgate);
            }
            Decision d = tollgate.limiter().check(limit, clientKey(plan, ctx, limit, caller));
            if (!d.allowed()) {
                throw new RateLimitExceededException(limit.policy(), d);
            }
        }
        return ctx.proceed();
    }

    private String clientKey(RateLimitPlans.Plan plan, InvocationContext ctx, LimitSpec limit, CallerInfo caller) {
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

    private CallerInfo caller(Tollgate tollgate) {
        Optional<CallerInfo> http = Optional.empty();
        try {
            HttpServletRequest r = request.get();
            r.getRemoteAddr();
            http = Optional.of(new HttpCallerInfo(r, tollgate.clientAddresses(), null));
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
}
