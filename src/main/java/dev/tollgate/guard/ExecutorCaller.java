package dev.tollgate.guard;

import dev.tollgate.DegradedCause;
import dev.tollgate.core.StoreUnavailableException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs Redis calls on Tollgate's own worker threads, behind a {@link Breaker}, and frees the caller
 * at the budget even while a worker is stuck in a socket read (which ignores interrupts).
 *
 * <p>The workers are a bulkhead: as many threads as Redis connections and as many queue places. A call
 * that finds them all taken waits for a place within its budget; one that gets no place, or whose
 * place is not reached by a worker before its budget is spent, is {@link DegradedCause#SATURATED}. It
 * never reached the breaker: a full pool is not an outage. They are Tollgate's own threads, not the
 * server's request threads: a burst of requests must not starve the Redis calls those requests wait for.
 *
 * <p>Inside the breaker each failure is classified ({@link Outages}): one that is not an outage leaves
 * as {@link NotAnOutageException}, which the breaker takes as an answer.
 */
public final class ExecutorCaller implements BoundedCaller {

    private final ThreadPoolExecutor workers;
    private final Semaphore places;
    private final long budgetNanos;
    private final Breaker breaker;
    private final Outages outages;

    public ExecutorCaller(GuardSettings settings, Breaker breaker, FailureClassifier classifier) {
        this.budgetNanos = settings.budget().toNanos();
        this.breaker = breaker;
        this.outages = new Outages(breaker, classifier);
        this.places = new Semaphore(2 * settings.workers());
        AtomicInteger n = new AtomicInteger();
        this.workers =
                new ThreadPoolExecutor(
                        settings.workers(),
                        settings.workers(),
                        30,
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(), // bounded by the places
                        r -> {
                            Thread t = new Thread(r, "tollgate-redis-" + n.incrementAndGet());
                            t.setDaemon(true);
                            return t;
                        },
                        new ThreadPoolExecutor.AbortPolicy()) {
                    @Override
                    protected void afterExecute(Runnable task, Throwable failure) {
                        places.release(); // also after a task cancelled in the queue, which runs as a no-op
                    }
                };
        workers.allowCoreThreadTimeOut(true);
    }

    /** With Tollgate's own {@link ConsecutiveFailuresBreaker}, for plain Java. */
    public static ExecutorCaller standalone(GuardSettings settings, FailureClassifier classifier) {
        return new ExecutorCaller(settings, Breaker.of(settings), classifier);
    }

    @Override
    public <T> T call(Callable<T> call) throws Exception {
        long deadline = System.nanoTime() + budgetNanos;
        if (!places.tryAcquire(budgetNanos, TimeUnit.NANOSECONDS)) {
            throw saturated();
        }
        AtomicBoolean claimed = new AtomicBoolean();
        Future<T> f;
        try {
            f = workers.submit(() -> {
                if (!claimed.compareAndSet(false, true)) {
                    return null; // its caller gave up while it waited in the queue
                }
                return breaker.call(outages.screened(call));
            });
        } catch (RejectedExecutionException closed) {
            places.release();
            throw saturated();
        }
        try {
            return f.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (claimed.compareAndSet(false, true)) {
                f.cancel(false);
                throw saturated();
            }
            f.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static StoreUnavailableException saturated() {
        return StoreUnavailableException.notAttempted(
                "every Redis connection stayed busy for the whole budget", DegradedCause.SATURATED);
    }

    @Override
    public DegradedCause causeOf(Throwable failure) {
        return outages.causeOf(failure);
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
