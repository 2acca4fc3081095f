package dev.tollgate.guard;

import jakarta.enterprise.context.ApplicationScoped;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.faulttolerance.Asynchronous;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;

/**
 * Where MicroProfile Fault Tolerance bounds every Redis call of a Tollgate server.
 *
 * <ul>
 *   <li>{@code @Asynchronous} + {@code @Timeout}: the call runs on a Fault Tolerance worker and the
 *       caller is freed at the budget, even while the worker is stuck in a socket read (which ignores
 *       interrupts). The timeout follows {@code tollgate.redis.timeout} unless set here directly.
 *   <li>{@code @Bulkhead}: at most {@code tollgate.redis.pool-size} calls run and as many wait; beyond
 *       that a call is refused at once, so no pile of blocked workers builds up during a hang.
 *   <li>{@code @CircuitBreaker}: 3 failures in a row open it for 500 ms. {@link RedisGuard} then keeps
 *       user requests away and lets its background probe make the half-open trial.
 * </ul>
 *
 * Every value can be changed with Fault Tolerance's own keys, e.g. {@code
 * dev.tollgate.guard.FaultTolerantRedisCaller/call/CircuitBreaker/requestVolumeThreshold=5}.
 */
@ApplicationScoped
public class FaultTolerantRedisCaller {

    @Asynchronous
    @Timeout(250)
    @Bulkhead(value = 16, waitingTaskQueue = 16)
    @CircuitBreaker(
            requestVolumeThreshold = 3,
            failureRatio = 1.0,
            delay = 500,
            successThreshold = 1,
            skipOn = BulkheadException.class)
    public CompletionStage<Object> call(Callable<?> call) throws Exception {
        return CompletableFuture.completedFuture(call.call());
    }
}
