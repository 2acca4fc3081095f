package dev.tollgate.cdi;

import dev.tollgate.ConcurrencyLimitExceededException;
import dev.tollgate.ConcurrencyLimited;
import dev.tollgate.Permit;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.config.BeanMethod;
import dev.tollgate.internal.config.ConcurrencyPlans;
import dev.tollgate.internal.engine.Engine;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Runs a {@link ConcurrencyLimited} business method in one of its limit's slots: taken before, freed
 * after (for a {@code CompletionStage}, when it completes); a full limit throws {@link
 * ConcurrencyLimitExceededException} and the method does not run.
 */
@ConcurrencyLimited("")
@Interceptor
@Priority(Interceptor.Priority.LIBRARY_BEFORE + 20)
public class ConcurrencyLimitInterceptor {

    @Inject
    TollgateRuntime runtime;

    @Inject
    ClientKeys keys;

    @Inject
    Callers callers;

    @AroundInvoke
    public Object limit(InvocationContext ctx) throws Exception {
        Optional<String> name =
                ConcurrencyPlans.of(new BeanMethod(ctx.getTarget().getClass(), ctx.getMethod()));
        if (name.isEmpty()) {
            return ctx.proceed();
        }
        Engine tollgate = runtime.tollgate();
        ConcurrencySpec spec = tollgate.concurrencyLimit(name.get());
        Permit permit = tollgate.concurrency().tryEnter(spec, keys.keyFor(spec.key(), callers.current()));
        if (!permit.admitted()) {
            throw new ConcurrencyLimitExceededException(permit);
        }
        boolean later = false;
        try {
            Object result = ctx.proceed();
            if (result instanceof CompletionStage<?> stage) {
                later = true;
                stage.whenComplete((value, failure) -> permit.close());
            }
            return result;
        } finally {
            if (!later) {
                permit.close();
            }
        }
    }
}
