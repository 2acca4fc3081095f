package dev.tollgate.cdi;

import dev.tollgate.internal.guard.ExecutorCaller;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.guard.NotAnOutageException;
import dev.tollgate.internal.guard.RedisGuard;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Callable;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;

/**
 * Where MicroProfile Fault Tolerance watches the Redis calls of a Tollgate server: it times them out
 * and keeps the circuit breaker.
 *
 * <ul>
 *   <li>{@code @Timeout}: follows {@code tollgate.redis.timeout} (see {@link FaultToleranceDefaults}).
 *   <li>{@code @CircuitBreaker}: {@code tollgate.breaker.failures} failures in a row (default 3) open it
 *       for {@code tollgate.breaker.delay} (default 500 ms; see {@link FaultToleranceDefaults}). {@link
 *       RedisGuard} then keeps user requests away, and its background probe makes the half-open trial.
 *       Only outages count: an error Redis answered with ({@link NotAnOutageException}: a data error,
 *       refused credentials) is skipped, as an answer.
 * </ul>
 *
 * The annotations' literals are {@link GuardSettings}' defaults. Every parameter can also be set with
 * Fault Tolerance's own method-level keys, the advanced form, which win over Tollgate's settings, e.g.
 * {@code dev.tollgate.cdi.FaultTolerantRedisCaller/call/CircuitBreaker/successThreshold=2}.
 *
 * <p>How calls reach it ({@link ExecutorCaller}): a healthy call runs on the request's own thread on an
 * idle pooled connection, its read bounded by what is left of {@code tollgate.redis.timeout}, and only
 * its failure is shown here ({@link MicroProfileBreaker#record}); after a failure every call comes
 * through here until one succeeds, so with the defaults this breaker opens and closes on the same calls
 * as if it saw them all (a breaker configured otherwise sees every call). A call that needs a new
 * connection comes through here on Tollgate's own worker threads, which free the request at the budget.
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
