package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.Decision;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimited;
import dev.tollgate.config.BeanMethod;
import dev.tollgate.config.RateLimitPlans;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.Reservation;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.time.Duration;

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
    Callers callers;

    @AroundInvoke
    public Object check(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        RateLimitPlans.Plan plan =
                RateLimitPlans.of(new BeanMethod(ctx.getTarget().getClass(), method));
        Tollgate tollgate = runtime.tollgate();
        CallerInfo caller = null;
        Duration longest = Duration.ZERO;
        LimitSpec waitedFor = null;
        for (String name : plan.limits()) {
            if (checkedByFilter(method, name)) {
                continue;
            }
            LimitSpec limit = tollgate.limit(name);
            if (caller == null) {
                caller = callers.current();
            }
            String key = clientKey(plan, ctx, limit, caller);
            Decision d;
            if (plan.waits()) {
                Reservation r = tollgate.limiter().reserve(limit, key, plan.maxWait());
                d = r.decision();
                if (r.delay().compareTo(longest) > 0) {
                    longest = r.delay();
                    waitedFor = limit;
                }
            } else {
                d = tollgate.limiter().check(limit, key);
            }
            if (!d.allowed()) {
                throw new RateLimitExceededException(limit.policy(), d);
            }
        }
        if (waitedFor != null) {
            waitFor(waitedFor, longest, tollgate);
        }
        return ctx.proceed();
    }

    /** Sleeps until the reserved tokens are there; an interrupted waiter is refused, its tokens spent. */
    private static void waitFor(LimitSpec limit, Duration wait, Tollgate tollgate) {
        long start = System.nanoTime();
        try {
            tollgate.sleeper().sleep(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            Duration left = wait.minusNanos(System.nanoTime() - start);
            throw new RateLimitExceededException(
                    limit.policy(),
                    new Decision(false, 0, left.isNegative() ? Duration.ZERO : left, Duration.ZERO, false));
        }
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
}
