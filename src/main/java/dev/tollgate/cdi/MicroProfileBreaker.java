package dev.tollgate.cdi;

import dev.tollgate.internal.guard.Breaker;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;

/**
 * MicroProfile Fault Tolerance's circuit breaker ({@link FaultTolerantRedisCaller}) as a {@link Breaker}.
 * Fault Tolerance decides when it opens and when it closes; it is shown every failed Redis call and,
 * with its defaults ({@code failureRatio=1}, {@code successThreshold=1}: N failures in a row open it, one
 * success closes it), the first success after a failure, which decides the same. Configured otherwise
 * through Fault Tolerance's own keys, it is shown every call ({@link #needsEverySuccess}).
 */
public final class MicroProfileBreaker implements Breaker {

    private static final String CALLER = FaultTolerantRedisCaller.class.getName();

    private final FaultTolerantRedisCaller bean;
    private final boolean everySuccess;

    public MicroProfileBreaker(FaultTolerantRedisCaller bean) {
        this(bean, ConfigProvider.getConfig());
    }

    MicroProfileBreaker(FaultTolerantRedisCaller bean, Config config) {
        this.bean = bean;
        this.everySuccess = setting(config, "failureRatio").map(Double::valueOf).orElse(1.0) != 1.0
                || setting(config, "successThreshold").map(Integer::valueOf).orElse(1) != 1;
    }

    /** A {@code @CircuitBreaker} parameter as Fault Tolerance reads it: method, then class, then global key. */
    private static Optional<String> setting(Config config, String parameter) {
        for (String key : List.of(
                CALLER + "/call/CircuitBreaker/" + parameter,
                CALLER + "/CircuitBreaker/" + parameter,
                "CircuitBreaker/" + parameter)) {
            Optional<String> v = config.getOptionalValue(key, String.class);
            if (v.isPresent()) {
                return v;
            }
        }
        return Optional.empty();
    }

    @Override
    public boolean needsEverySuccess() {
        return everySuccess;
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
