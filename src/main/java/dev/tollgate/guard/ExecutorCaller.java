package dev.tollgate.guard;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

/**
 * A {@link BoundedCaller} for plain Java (outside a MicroProfile server): a fixed set of worker
 * threads with a short queue (a bulkhead), a wait of at most the budget, and a {@link CircuitBreaker}.
 * The caller is freed at the budget even when the worker is stuck in a socket read.
 */
public final class ExecutorCaller implements BoundedCaller {

    private final ThreadPoolExecutor workers;
    private final long budgetNanos;
    private final CircuitBreaker breaker;

    public ExecutorCaller(GuardSettings settings, LongSupplier nanoTime) {
        this.budgetNanos = settings.budget().toNanos();
        this.breaker = new CircuitBreaker(settings.failureThreshold(), settings.breakerDelay(), nanoTime);
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

    @Override
    public <T> T call(Callable<T> call) throws Exception {
        breaker.acquire();
        Future<T> f = workers.submit(call);
        try {
            T value = f.get(budgetNanos, TimeUnit.NANOSECONDS);
            breaker.onSuccess();
            return value;
        } catch (TimeoutException e) {
            f.cancel(true);
            breaker.onFailure();
            throw e;
        } catch (ExecutionException e) {
            breaker.onFailure();
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    @Override
    public boolean isBreakerOpen(Throwable failure) {
        return failure instanceof BreakerOpenException;
    }

    /** Whether the breaker is open or half-open now. */
    public boolean breakerOpen() {
        return breaker.isOpen();
    }

    @Override
    public void close() {
        workers.shutdownNow();
    }
}
