package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.Decision;
import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimited;
import dev.tollgate.config.BeanMethod;
import dev.tollgate.config.RateLimitPlans;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.Admission;
import dev.tollgate.ratelimit.Charge;
import dev.tollgate.ratelimit.Charged;
import dev.tollgate.ratelimit.LimitSpec;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ContextNotActiveException;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Checks a {@link RateLimited} business method's limits before it runs. */
@RateLimited({})
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 10)
public class RateLimitInterceptor {

    @Inject
    TollgateRuntime runtime;

    @Inject
    Instance<FilterMarks> marks;

    @Inject
    Callers callers;

    @Inject
    Charges charges;

    @AroundInvoke
    public Object check(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        RateLimitPlans.Plan plan =
                RateLimitPlans.of(new BeanMethod(ctx.getTarget().getClass(), method));
        Tollgate tollgate = runtime.tollgate();
        Long cost = plan.costParameter() < 0 ? null : Charges.cost(ctx.getParameters()[plan.costParameter()]);
        List<Charge> toCharge = new ArrayList<>();
        CallerInfo caller = null;
        for (String name : cost != null && cost == 0 ? List.<String>of() : plan.limits()) {
            if (checkedByFilter(method, name)) {
                continue;
            }
            if (caller == null) {
                caller = callers.current();
            }
            toCharge.add(charges.of(tollgate, name, caller, keyArgument(plan, ctx), cost, plan.countOn()));
        }
        if (toCharge.isEmpty()) {
            return ctx.proceed();
        }
        Admission admission = tollgate.limiter().admit(toCharge, plan.waits() ? plan.maxWait() : Duration.ZERO);
        if (!admission.allowed()) {
            Charged denied = admission.denied().orElseThrow();
            throw new RateLimitExceededException(
                    denied.charge().policy(),
                    denied.decision(),
                    denied.charge().cost(),
                    denied.charge().largestCost());
        }
        admission.longestWait().ifPresent(w -> waitFor(w.charge().limit(), w.delay(), tollgate));
        boolean failed = false;
        try {
            return ctx.proceed();
        } catch (Exception e) {
            failed = plan.fails(e);
            throw e;
        } catch (Error e) {
            failed = plan.fails(e);
            throw e;
        } finally {
            admission.settle(failed);
        }
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

    /** The {@code @RateKey} argument, or null: the limit's {@code key} setting decides. */
    private static String keyArgument(RateLimitPlans.Plan plan, InvocationContext ctx) {
        if (plan.keyParameter() >= 0) {
            Object arg = ctx.getParameters()[plan.keyParameter()];
            if (arg != null) {
                return arg.toString();
            }
        }
        return null;
    }

    private boolean checkedByFilter(Method method, String limit) {
        try {
            return marks.isResolvable() && marks.get().wasChecked(method, limit);
        } catch (ContextNotActiveException noRequest) {
            return false;
        }
    }
}
