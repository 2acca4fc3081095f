package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.core.DirectLane;
import dev.tollgate.internal.core.StoreSaturatedException;
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
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs Redis calls within the budget, behind a {@link Breaker}, which sees outages only.
 *
 * <p>On the caller's own thread when the {@link DirectLane} has a connection at once (an idle pooled
 * one, its read bounded by what is left of the budget), so a call pays no hand-off. While the breaker's
 * last recorded outcome is a success, a successful call is not shown to it; an outage is ({@link
 * Breaker#record}), and from then on every call goes through the breaker, on this thread when a
 * connection is idle, until one succeeds. So the breaker sees every outage and, between two outages,
 * at least the first success: a breaker that opens on N failures in a row (Fault Tolerance's {@code
 * failureRatio=1}, the default) opens on exactly the same calls as if it saw them all, and its
 * half-open trial, delay and timeout are its own. A breaker configured otherwise ({@link
 * Breaker#needsEverySuccess}) is shown every call, still on this thread. Failures on this thread are
 * counted before the call returns, so the next call already finds the breaker open. An outage the
 * breaker recorded on a worker counts the same: else the breaker would stay open (or a failure from
 * opening) while successes, the probe's half-open trial among them, passed it unseen.
 *
 * <p>What is not an outage never reaches the breaker ({@link Outages}): an error Redis answered with
 * leaves as {@link NotAnOutageException}; a pool that stays full, or a call that waited so long for a
 * connection that what was left of its budget ran out, is {@link StoreSaturatedException} ({@link
 * DegradedCause#SATURATED}): load, not an outage; so is a timeout while Redis went on answering other
 * calls ({@link DegradedCause#LOAD}: the thread, not Redis, was late).
 *
 * <p>When a connection would have to be made, on Tollgate's own worker threads, which free the caller at
 * the budget even while a worker is stuck in a socket read (which ignores interrupts) or in making a
 * connection. The workers are a bulkhead: as many threads as Redis connections and as many queue
 * places. A call that finds them all taken waits for a place within its budget; one that gets none, or
 * whose place no worker reaches before its budget is spent, is saturated too. They are Tollgate's own,
 * not the server's request threads: a burst of requests must not starve the Redis calls those requests
 * wait for.
 */
public final class ExecutorCaller implements BoundedCaller {

    private final ThreadPoolExecutor workers;
    private final Semaphore places;
    private final long budgetNanos;
    private final Breaker breaker;
    private final DirectLane lane;
    private final Outages outages;
    private final boolean everySuccess;

    /**
     * How many times an outage was recorded in the breaker, bumped before and after each, from any thread
     * (a worker's included); and that count as it was when a call last succeeded through the breaker. They
     * differ from an outage until a call through the breaker succeeds: meanwhile the breaker sees every
     * call. A success that the breaker recorded before a concurrent failure leaves them different.
     */
    private final AtomicLong outagesRecorded = new AtomicLong();

    private final AtomicLong recordedAtLastSuccess = new AtomicLong();

    /** Every call on a worker. */
    public ExecutorCaller(GuardSettings settings, Breaker breaker, FailureClassifier classifier) {
        this(settings, breaker, DirectLane.NONE, classifier);
    }

    /** Calls on the caller's thread through {@code lane} when it can, else on a worker. */
    public ExecutorCaller(GuardSettings settings, Breaker breaker, DirectLane lane, FailureClassifier classifier) {
        this.budgetNanos = settings.budget().toNanos();
        this.breaker = breaker;
        this.lane = lane;
        this.outages = new Outages(breaker, classifier, System::nanoTime);
        this.places = new Semaphore(2 * settings.workers());
        this.everySuccess = breaker.needsEverySuccess();
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
        DirectLane.Lease lease;
        try {
            lease = lane.lease(budgetNanos);
        } catch (DirectLane.Busy busy) {
            return onWorker(call);
        }
        try (lease) {
            // A lease that waited for a connection had a full pool: a timeout after it is load.
            Callable<T> screened = outages.screened(() -> lease.run(call), lease.waited());
            if ((!lastRecordedSuccess() || everySuccess) && !lease.waited()) {
                return throughBreaker(screened);
            }
            try {
                return screened.call();
            } catch (NotAnOutageException answered) {
                throw answered;
            } catch (Exception failure) {
                outagesRecorded.incrementAndGet();
                try {
                    breaker.record(failure);
                } finally {
                    outagesRecorded.incrementAndGet();
                }
                throw failure;
            }
        }
    }

    /** Whether the breaker's last recorded outcome is a success: then it need not see the successes. */
    private boolean lastRecordedSuccess() {
        return recordedAtLastSuccess.get() == outagesRecorded.get();
    }

    /**
     * {@code screened} through the breaker, on this thread or a worker's. Whatever the breaker records
     * is remembered here: an outage (its own timeout included) makes every call go through it until one
     * succeeds; a success (an answer that is not an outage too: Fault Tolerance's {@code skipOn}) lets
     * the next successes pass unseen, unless an outage was recorded meanwhile.
     */
    private <T> T throughBreaker(Callable<T> screened) throws Exception {
        long before = outagesRecorded.get();
        try {
            T value = breaker.call(screened);
            recordedAtLastSuccess.accumulateAndGet(before, Math::max);
            return value;
        } catch (NotAnOutageException answered) {
            recordedAtLastSuccess.accumulateAndGet(before, Math::max);
            throw answered;
        } catch (Exception failure) {
            if (!breaker.isOpenFailure(failure)) {
                outagesRecorded.addAndGet(2);
            }
            throw failure;
        }
    }

    private <T> T onWorker(Callable<T> call) throws Exception {
        long start = System.nanoTime();
        long deadline = start + budgetNanos;
        if (!places.tryAcquire(budgetNanos, TimeUnit.NANOSECONDS)) {
            throw saturated(null);
        }
        AtomicBoolean claimed = new AtomicBoolean();
        Future<T> f;
        try {
            f = workers.submit(() -> {
                if (!claimed.compareAndSet(false, true)) {
                    return null; // its caller gave up while it waited in the queue
                }
                return throughBreaker(outages.screened(call));
            });
        } catch (RejectedExecutionException closed) {
            places.release();
            throw saturated(closed);
        }
        try {
            return f.get(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            if (claimed.compareAndSet(false, true)) {
                f.cancel(false);
                throw saturated(null);
            }
            f.cancel(true);
            // The worker is still in the call: an outage if Redis said nothing since, else this server's load.
            if (outages.timeoutSince(start) == DegradedCause.LOAD) {
                throw new NotAnOutageException(DegradedCause.LOAD, e);
            }
            throw e;
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    private static StoreSaturatedException saturated(Throwable cause) {
        return new StoreSaturatedException(
                "every Redis connection stayed busy for the whole budget (tollgate.redis.pool-size)", cause);
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
