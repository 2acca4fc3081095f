package dev.tollgate.cdi;

import dev.tollgate.guard.Breaker;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/** MicroProfile Fault Tolerance's circuit breaker ({@link FaultTolerantRedisCaller}) as a {@link Breaker}. */
public final class MicroProfileBreaker implements Breaker {

    private final FaultTolerantRedisCaller bean;

    public MicroProfileBreaker(FaultTolerantRedisCaller bean) {
        this.bean = bean;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T call(Callable<T> call) throws Exception {
        return (T) bean.call(call);
    }

    @Override
    public boolean isOpenFailure(Throwable failure) {
        return failure instanceof CircuitBreakerOpenException;
    }

    @Override
    public boolean isTimeout(Throwable failure) {
        return failure instanceof TimeoutException;
    }
}
