package dev.tollgate.internal.core;

import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs tasks again and again, for keep-alives: the seam through which tests drive them instead of
 * sleeping.
 */
public interface Scheduler extends AutoCloseable {

    /** A task that runs until cancelled. */
    @FunctionalInterface
    interface Task {
        /** Stops further runs; a run in progress finishes. */
        void cancel();
    }

    /** Runs {@code task} every {@code period}, the first time one period from now. */
    Task every(Duration period, Runnable task);

    /** Cancels every task; nothing runs after it returns, bar a run already in progress. */
    @Override
    void close();

    /**
     * {@code threads} daemon threads named {@code name-<n>}, started on first use, so a JVM never waits
     * for them to exit. They run with the class loader of the thread that built the scheduler.
     */
    static Scheduler daemon(String name, int threads) {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        AtomicInteger count = new AtomicInteger();
        ThreadFactory factory = r -> {
            Thread t = new Thread(r, name + "-" + count.incrementAndGet());
            t.setDaemon(true);
            t.setContextClassLoader(loader);
            return t;
        };
        ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(threads, factory);
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return new Scheduler() {
            @Override
            public Task every(Duration period, Runnable task) {
                long nanos = Math.max(1, period.toNanos());
                // An exception would end a repeating task silently: each run stands on its own.
                Runnable guarded = () -> {
                    try {
                        task.run();
                    } catch (RuntimeException e) {
                        java.util.logging.Logger.getLogger(Scheduler.class.getName())
                                .log(java.util.logging.Level.WARNING, "Tollgate: a " + name + " task failed", e);
                    }
                };
                var future = executor.scheduleWithFixedDelay(guarded, nanos, nanos, TimeUnit.NANOSECONDS);
                return () -> future.cancel(false);
            }

            @Override
            public void close() {
                executor.shutdownNow();
            }
        };
    }
}
