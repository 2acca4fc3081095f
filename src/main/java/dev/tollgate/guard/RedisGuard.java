package dev.tollgate.guard;

import dev.tollgate.core.Failures;
import dev.tollgate.core.Guard;
import dev.tollgate.core.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps user requests away from a Redis that is not answering, and brings them back without making
 * any of them pay for finding out.
 *
 * <p>Every call goes through a {@link BoundedCaller}, which bounds it by the budget and counts its
 * failures in a circuit breaker. Once that breaker reports itself open, the guard answers every call
 * at once ({@link StoreUnavailableException}: the caller makes its degraded decision) and starts a
 * background probe. The probe
 * calls through the same breaker, so it, not a user request, is the breaker's half-open trial; when
 * it gets an answer (and has reloaded the scripts) the guard lets requests through again.
 *
 * <p>Logs once when degraded mode starts (WARNING) and once when it ends (INFO, with how many
 * decisions were degraded), never per request.
 */
public final class RedisGuard implements Guard, BreakerState, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(RedisGuard.class.getName());

    private final BoundedCaller caller;
    private final Callable<?> probe;
    private final Duration probeInterval;
    private final String target;
    private final LongSupplier nanoTime;
    private final ScheduledExecutorService scheduler;
    private final StoreUnavailableException breakerOpen;
    private final AtomicBoolean open = new AtomicBoolean();
    private final AtomicLong degraded = new AtomicLong();
    private final AtomicLong probes = new AtomicLong();
    private volatile long openedAt;
    private volatile Throwable lastFailure;
    private ScheduledFuture<?> probing;

    /**
     * @param probe asks Redis whether it answers (and reloads scripts); run only by the background probe
     * @param target where Redis is, for log lines
     */
    public RedisGuard(
            BoundedCaller caller, Callable<?> probe, Duration probeInterval, String target, LongSupplier nanoTime) {
        this.caller = caller;
        this.probe = probe;
        this.probeInterval = probeInterval;
        this.target = target;
        this.nanoTime = nanoTime;
        this.breakerOpen = StoreUnavailableException.notAttempted(
                "Redis at " + target + " is not asked while its circuit breaker is open");
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "tollgate-redis-probe");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public <T> T call(String storeKey, Callable<T> call) {
        if (open.get()) {
            degraded.incrementAndGet();
            throw breakerOpen;
        }
        try {
            T value = caller.call(call);
            if (degraded.get() != 0) {
                degraded.set(0); // an outage's count starts with its first failure in a row
            }
            return value;
        } catch (Exception e) {
            degraded.incrementAndGet();
            if (caller.isBreakerOpen(e)) {
                open(lastFailure == null ? e : lastFailure);
                throw breakerOpen;
            }
            lastFailure = e;
            LOG.log(Level.FINE, e, () -> "Tollgate: a Redis call at " + target + " failed");
            throw e instanceof StoreUnavailableException unavailable
                    ? unavailable
                    : new StoreUnavailableException("Redis at " + target + " did not answer in time", e);
        }
    }

    /**
     * Asks Redis once, in the background, as the probe does: the client is built, every script loaded and
     * the breaker's first call made before a request needs them, so the first requests after startup do
     * not pay for that. Its failure (Redis down at startup) counts like any call's.
     */
    public void warmUp() {
        scheduler.execute(() -> {
            try {
                caller.call(probe);
            } catch (Exception e) {
                LOG.log(Level.FINE, e, () -> "Tollgate: warming up the calls to Redis at " + target + " failed");
            }
        });
    }

    /** Whether calls are being answered without asking Redis. */
    @Override
    public boolean isOpen() {
        return open.get();
    }

    /** How many background probes have been sent since this guard was built. */
    @Override
    public long probesSent() {
        return probes.get();
    }

    private void open(Throwable cause) {
        if (!open.compareAndSet(false, true)) {
            return;
        }
        openedAt = nanoTime.getAsLong();
        LOG.warning(() -> "Tollgate: Redis at " + target + " is not answering (" + Failures.describe(cause)
                + "); limits make their degraded decisions (tollgate.fail-open) without asking it until a"
                + " background probe gets an answer");
        synchronized (this) {
            probing = scheduler.scheduleWithFixedDelay(
                    this::probeOnce, probeInterval.toNanos(), probeInterval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void probeOnce() {
        probes.incrementAndGet();
        try {
            caller.call(probe);
            recover();
        } catch (Exception stillDown) {
            // The breaker refused it or Redis did not answer: try again at the next interval.
        }
    }

    private void recover() {
        synchronized (this) {
            if (probing != null) {
                probing.cancel(false);
                probing = null;
            }
        }
        if (open.compareAndSet(true, false)) {
            long millis = (nanoTime.getAsLong() - openedAt) / 1_000_000;
            long count = degraded.getAndSet(0);
            LOG.info(() -> "Tollgate: Redis at " + target + " answers again after " + millis + " ms; " + count
                    + " decisions were degraded meanwhile");
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        caller.close();
    }
}
