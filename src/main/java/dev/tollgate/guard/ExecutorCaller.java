package dev.tollgate.guard;

import dev.tollgate.core.DirectLane;
import dev.tollgate.core.StoreSaturatedException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs Redis calls within the budget, behind a {@link Breaker}.
 *
 * <p>On the caller's own thread when the {@link DirectLane} has a connection at once (an idle pooled
 * one, its read bounded by what is left of the budget), so a call pays no hand-off. While the breaker's
 * last recorded outcome is a success, a successful call is not shown to it; a failure is ({@link
 * Breaker#record}), and from then on every call goes through the breaker, on this thread when a
 * connection is idle, until one succeeds. So the breaker sees every failure and, between two failures,
 * at least the first success: a breaker that opens on N failures in a row (Fault Tolerance's {@code
 * failureRatio=1}, the default) opens on exactly the same calls as if it saw them all, and its
 * half-open trial, delay and timeout are its own. A breaker configured otherwise ({@link
 * Breaker#needsEverySuccess}) is shown every call, still on this thread. Failures on this thread are counted before the call
 * returns, so the next call already finds the breaker open. A pool that stays full ({@link
 * StoreSaturatedException}) is load, never shown to the breaker.
 *
 * <p>When a connection would have to be made, on Tollgate's own worker threads, which free the caller at
 * the budget even while a worker is stuck in a socket read (which ignores interrupts) or in making a
 * connection.
 *
 * <p>The workers are a bulkhead: as many threads as Redis connections and as many queue places; a
 * call that finds them all taken is refused at once. They are Tollgate's own, not the server's
 * request threads: a burst of requests must not starve the Redis calls those requests wait for.
 */
public final class ExecutorCaller implements BoundedCaller {

    private final ThreadPoolExecutor workers;
    private final long budgetNanos;
    private final Breaker breaker;
    private final DirectLane lane;
    private final boolean everySuccess;

    /** False from a failure until a call through the breaker succeeds: meanwhile the breaker sees every call. */
    private volatile boolean lastRecordedSuccess = true;

    /** Every call on a worker. */
    public ExecutorCaller(GuardSettings settings, Breaker breaker) {
        this(settings, breaker, DirectLane.NONE);
    }

    /** Calls on the caller's thread through {@code lane} when it can, else on a worker. */
    public ExecutorCaller(GuardSettings settings, Breaker breaker, DirectLane lane) {
        this.budgetNanos = settings.budget().toNanos();
        this.breaker = breaker;
        this.lane = lane;
        this.everySuccess = breaker.needsEverySuccess();
        AtomicInteger n = new AtomicInteger();
        this.workers = new ThreadPoolExecutor(
                settings.workers(),
                settings.workers(),
                30,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(settings.workers()),
                r -> {
                    Thread t = new Thread(r, "tollgate-redis-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.AbortPolicy());
        workers.allowCoreThreadTimeOut(true);
    }

    /** With Tollgate's own {@link ConsecutiveFailuresBreaker}, for plain Java. */
    public static ExecutorCaller standalone(GuardSettings settings) {
        return new ExecutorCaller(settings, Breaker.of(settings));
    }

    @Override
    public <T> T call(Callable<T> call) throws Exception {
        DirectLane.Lease lease;
        try {
            lease = lane.lease(budgetNanos);
        } catch (DirectLane.Busy busy) {
            return succeeded(onWorker(call));
        }
        try (lease) {
            if (!lastRecordedSuccess || everySuccess) {
                return succeeded(breaker.call(() -> lease.run(call)));
            }
            try {
                return lease.run(call);
            } catch (Exception failure) {
                lastRecordedSuccess = false;
                breaker.record(failure);
                throw failure;
            }
        }
    }

    /** A call the breaker saw succeed: from now on it need not see the successes. */
    private <T> T succeeded(T value) {
        lastRecordedSuccess = true;
        return value;
    }

    private <T> T onWorker(Callable<T> call) throws Exception {
        Future<T> f = workers.submit(() -> breaker.call(call));
        try {
            return f.get(budgetNanos, TimeUnit.NANOSECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public boolean isBreakerOpen(Throwable failure) {
        return breaker.isOpenFailure(failure);
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
