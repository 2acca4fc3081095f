package dev.tollgate.guard;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs Redis calls on Tollgate's own worker threads, behind a {@link Breaker}, and frees the caller
 * at the budget even while a worker is stuck in a socket read (which ignores interrupts).
 *
 * <p>The workers are a bulkhead: as many threads as Redis connections and as many queue places; a
 * call that finds them all taken is refused at once. They are Tollgate's own, not the server's
 * request threads: a burst of requests must not starve the Redis calls those requests wait for.
 */
public final class ExecutorCaller implements BoundedCaller {

    private final ThreadPoolExecutor workers;
    private final long budgetNanos;
    private final Breaker breaker;

    public ExecutorCaller(GuardSettings settings, Breaker breaker) {
        this.budgetNanos = settings.budget().toNanos();
        this.breaker = breaker;
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
