package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.Guard;
import java.time.Duration;
import java.util.Optional;
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
 * <p>Only an outage opens the breaker ({@link DegradedCause#countsTowardBreaker()}). A call Redis
 * answered with an error about that call is degraded alone; refused credentials degrade every call but
 * are not an outage either (an ERROR says so, at most once a minute while it lasts); a call that found
 * every worker busy for its whole budget is {@link DegradedCause#SATURATED}, and one that ran out of its
 * budget while Redis answered other calls is {@link DegradedCause#LOAD} (each a WARNING at most once a
 * minute): this server's load, never an outage. The exception each failed call throws says which
 * ({@link StoreUnavailableException#degradedCause()}).
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
    private final FailureNotices notices;
    private ScheduledFuture<?> probing;
    private ScheduledFuture<?> warming;
    /** Whether a call has had Redis's answer: then the warm-up has nothing left to do. */
    private volatile boolean answeredOnce;

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
        this.notices = new FailureNotices(target, nanoTime);
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
            answered();
            return value;
        } catch (Exception e) {
            throw failed(caller.causeOf(e), e);
        }
    }

    private void answered() {
        if (!answeredOnce) {
            answeredOnce = true;
        }
        if (degraded.get() != 0) {
            degraded.set(0); // an outage's count starts with its first failure in a row
        }
        notices.answered();
    }

    /** What a call that failed for {@code cause} throws; logs and counts as the cause asks. */
    private StoreUnavailableException failed(DegradedCause cause, Exception e) {
        Throwable failure = e instanceof NotAnOutageException n ? n.getCause() : e;
        switch (cause) {
            case BREAKER_OPEN -> {
                degraded.incrementAndGet();
                open(lastFailure == null ? e : lastFailure);
                return breakerOpen;
            }
            case AUTH -> notices.authRefused(failure);
            case SATURATED -> notices.saturated();
            case LOAD -> notices.load();
            case DATA_ERROR -> LOG.log(Level.FINE, failure, () -> "Tollgate: Redis at " + target + " refused a call");
            default -> {
                degraded.incrementAndGet();
                lastFailure = failure;
                LOG.log(Level.FINE, failure, () -> "Tollgate: a Redis call at " + target + " failed");
            }
        }
        if (failure instanceof StoreUnavailableException s && s.degradedCause() == cause) {
            return s;
        }
        return new StoreUnavailableException("Redis at " + target + " " + what(cause), failure, cause);
    }

    private static String what(DegradedCause cause) {
        return switch (cause) {
            case TIMEOUT -> "did not answer in time";
            case LOAD -> "answered, but this call ran out of its budget first (this server's load)";
            case AUTH -> "refused Tollgate's credentials or permissions";
            case DATA_ERROR -> "answered this call with an error";
            default -> "could not be asked";
        };
    }

    /**
     * Gets Redis ready in the background until it answers once: the probe (which builds the client and
     * loads every script) is run directly, outside the breaker, then one empty call goes through the
     * workers and the breaker. So the first requests after a start, or after a Redis that was down at
     * startup comes up, do not pay for that. Stops when the breaker opens: the background probe then
     * does the same. Once a user call has had Redis's answer the empty call is left out: its success,
     * shown to the breaker, could come in the middle of an outage that began meanwhile and wipe the
     * failures the breaker had counted in a row.
     */
    public void warmUp() {
        synchronized (this) {
            warming = scheduler.scheduleWithFixedDelay(
                    this::warmUpOnce, 0, probeInterval.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void warmUpOnce() {
        if (!open.get()) {
            try {
                probe.call();
            } catch (Exception notYet) {
                if (caller.causeOf(notYet).countsTowardBreaker()) {
                    LOG.log(Level.FINE, notYet, () -> "Tollgate: Redis at " + target + " is not ready yet");
                    return;
                }
            }
        }
        // The empty call is shown to the breaker; the probe, made directly, is not.
        if (!open.get() && !answeredOnce) {
            try {
                caller.call(() -> null);
            } catch (Exception e) {
                LOG.log(Level.FINE, e, () -> "Tollgate: the first call to Redis at " + target + " failed");
            }
        }
        synchronized (this) {
            warming.cancel(false);
        }
    }

    /** Whether calls are being answered without asking Redis. */
    @Override
    public boolean isOpen() {
        return open.get();
    }

    /** What Redis said when it last refused Tollgate's credentials, while it refuses them. */
    @Override
    public Optional<String> authFailure() {
        return notices.authFailure();
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
        } catch (Exception e) {
            if (e instanceof NotAnOutageException n && !n.degradedCause().isLoad()) {
                recover(); // Redis answered (refused credentials, say): calls say so themselves
            }
            // Otherwise the breaker refused it or Redis did not answer: try again at the next interval.
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
