package dev.tollgate.cdi;

import dev.tollgate.guard.ExecutorCaller;
import dev.tollgate.guard.GuardSettings;
import dev.tollgate.guard.NotAnOutageException;
import dev.tollgate.guard.RedisGuard;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Where MicroProfile Fault Tolerance watches every Redis call of a Tollgate server. It runs on
 * Tollgate's own worker threads ({@link ExecutorCaller}), which also free the waiting request at the
 * budget; here Fault Tolerance times the call out and keeps the circuit breaker:
 *
 * <ul>
 *   <li>{@code @Timeout}: follows {@code tollgate.redis.timeout} (see {@link FaultToleranceDefaults}).
 *   <li>{@code @CircuitBreaker}: {@link GuardSettings}' defaults, 3 failures in a row open it for 500 ms. {@link RedisGuard} then keeps
 *       user requests away, and its background probe makes the half-open trial. Only outages count:
 *       an error Redis answered with ({@link NotAnOutageException}: a data error, refused credentials)
 *       is skipped, as an answer.
 * </ul>
 *
 * Every value can be changed with Fault Tolerance's own keys, e.g. {@code
 * dev.tollgate.cdi.FaultTolerantRedisCaller/call/CircuitBreaker/requestVolumeThreshold=5}.
 *
 * <p>Not {@code @Asynchronous}: Fault Tolerance would run the call on the server's default executor,
 * the pool the HTTP requests themselves run on. Measured on 2 cores, 32 concurrent requests starved
 * those calls past the budget, opened the breaker and failed the limiter open under load alone.
 */
@ApplicationScoped
public class FaultTolerantRedisCaller {

    @Timeout(GuardSettings.DEFAULT_BUDGET_MILLIS)
    @CircuitBreaker(
            requestVolumeThreshold = GuardSettings.DEFAULT_FAILURE_THRESHOLD,
            failureRatio = 1.0,
            delay = GuardSettings.DEFAULT_BREAKER_DELAY_MILLIS,
            successThreshold = 1,
            skipOn = NotAnOutageException.class)
    public Object call(Callable<?> call) throws Exception {
        return call.call();
    }
}
