package dev.tollgate.guard;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

/** A {@link BoundedCaller} over {@link FaultTolerantRedisCaller}: MicroProfile Fault Tolerance does the work. */
public final class MicroProfileCaller implements BoundedCaller {

    private final FaultTolerantRedisCaller bean;
    private final long safetyNanos;

    /**
     * @param budget the configured budget; Fault Tolerance's {@code @Timeout} enforces it, and this
     *     caller gives up at twice it only should that timeout be misconfigured
     */
    public MicroProfileCaller(FaultTolerantRedisCaller bean, Duration budget) {
        this.bean = bean;
        this.safetyNanos = budget.multipliedBy(2).toNanos();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T call(Callable<T> call) throws Exception {
        try {
            return (T) bean.call(call).toCompletableFuture().get(safetyNanos, TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public boolean isBreakerOpen(Throwable failure) {
        return failure instanceof CircuitBreakerOpenException;
    }

    @Override
    public void close() {
        // The bean's lifecycle is the container's.
    }
}
