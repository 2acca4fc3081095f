package dev.tollgate.cdi;

import dev.tollgate.RateLimitExceededException;
import dev.tollgate.RateLimited;
import dev.tollgate.internal.config.BeanMethod;
import dev.tollgate.internal.config.MethodLimits;
import dev.tollgate.internal.config.RateLimitedMethods;
import dev.tollgate.internal.engine.Admissions;
import dev.tollgate.internal.engine.Cost;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.engine.Outcome;
import dev.tollgate.internal.engine.ReportedCosts;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Charged;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Method;

/**
 * Checks a {@link RateLimited} business method's limits before it runs, through {@link Admissions}:
 * this interceptor says who the caller is and what the call costs, and answers a refusal with an
 * exception ({@link #admitted}). The method runs with its {@link dev.tollgate.CostReport} open, and its
 * admission is settled when it ends ({@link ReportedCosts}).
 */
@RateLimited({})
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 10)
public class RateLimitInterceptor {

    @Inject
    Engine tollgate;

    @Inject
    RequestMarks marks;

    @Inject
    Callers callers;

    @Inject
    Charges charges;

    @AroundInvoke
    public Object check(InvocationContext ctx) throws Exception {
        Method method = ctx.getMethod();
        MethodLimits limits =
                RateLimitedMethods.of(new BeanMethod(ctx.getTarget().getClass(), method));
        FilterMarks marks = limits.limits().isEmpty() ? null : this.marks.current();
        if (marks != null && marks.checkedAll(method, limits.limits())) {
            // The JAX-RS filter admitted this request's call under every limit: its response settles it.
            return ReportedCosts.run(null, limits::fails, ctx::proceed);
        }
        Object[] args = ctx.getParameters();
        Cost cost = limits.costed() ? Charges.cost(args[limits.costParameter()]) : Cost.CONFIGURED;
        Admissions.Caller caller = charges.of(tollgate, callers::current, keyArgument(limits, args));
        Outcome outcome = new Admissions(tollgate)
                .call(limits, cost, caller, name -> marks != null && marks.wasChecked(method, name));
        Admission admission = outcome instanceof Outcome.Free ? null : admitted(outcome);
        return ReportedCosts.run(admission, limits::fails, ctx::proceed);
    }

    /**
     * The admission of an admitted call; any other outcome as the exception a business method's caller
     * gets: a denial or an interrupted wait as {@link RateLimitExceededException} (which a JAX-RS
     * resource answers as the filter does), a key too long as it is, a bad cost as an {@link
     * IllegalArgumentException}.
     */
    public static Admission admitted(Outcome outcome) {
        if (outcome instanceof Outcome.Admitted a) {
            return a.admission();
        }
        if (outcome instanceof Outcome.Denied d) {
            Charged c = d.denied();
            throw new RateLimitExceededException(
                    c.charge().policy(),
                    c.decision(),
                    c.charge().cost(),
                    c.charge().largestCost());
        }
        if (outcome instanceof Outcome.Interrupted i) {
            throw new RateLimitExceededException(i.policy(), i.decision());
        }
        if (outcome instanceof Outcome.KeyTooLong k) {
            throw k.exception();
        }
        if (outcome instanceof Outcome.BadCost b) {
            throw new IllegalArgumentException(b.problem());
        }
        if (outcome instanceof Outcome.BadIdempotencyKey b) {
            throw new IllegalArgumentException(b.problem());
        }
        throw new IllegalArgumentException("no admission: " + outcome);
    }

    /** The {@code @RateKey} argument, or null: the limit's {@code key} setting decides. */
    private static String keyArgument(MethodLimits limits, Object[] args) {
        Object arg = limits.keyParameter() >= 0 ? args[limits.keyParameter()] : null;
        return arg == null ? null : arg.toString();
    }
}
