package dev.tollgate.internal.concurrency;

import dev.tollgate.Permit;
import dev.tollgate.internal.core.Scheduler;
import java.time.Duration;

/**
 * An admitted call: its lease (none when admitted degraded), renewed every lease/3 until the call
 * ends.
 */
final class Leased implements Permit {

    final ConcurrencySpec spec;
    final String key;
    final String id;
    private final ConcurrencyLimiter limiter;
    private final long inFlight;
    private final boolean degraded;
    private Scheduler.Task renewal; // guarded by this
    private boolean closed; // guarded by this
    private boolean lost; // guarded by this

    Leased(ConcurrencyLimiter limiter, ConcurrencySpec spec, String key, String id, long inFlight, boolean degraded) {
        this.limiter = limiter;
        this.spec = spec;
        this.key = key;
        this.id = id;
        this.inFlight = inFlight;
        this.degraded = degraded;
        limiter.listener().running(spec, 1);
        if (id != null) {
            renewal = limiter.renewEvery(spec.lease().dividedBy(3), () -> limiter.renew(this));
        }
    }

    @Override
    public boolean admitted() {
        return true;
    }

    @Override
    public boolean degraded() {
        return degraded;
    }

    @Override
    public String limit() {
        return spec.name();
    }

    @Override
    public long inFlight() {
        return inFlight;
    }

    @Override
    public Duration retryAfter() {
        return Duration.ZERO;
    }

    /** The store no longer has the lease: the call runs on without a slot. Told once. */
    void lost() {
        synchronized (this) {
            if (closed || lost) {
                return;
            }
            lost = true;
            stopRenewal();
        }
        limiter.listener().leaseLost(spec);
        ConcurrencyLimiter.LOG.warning(() -> "Tollgate: a call of concurrency limit '" + spec.name()
                + "' outlived its lease (this server was paused, or Redis unreachable, for longer than the lease of "
                + spec.leaseMillis() + " ms): until it ends the limit may admit one call too many");
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            stopRenewal();
        }
        limiter.listener().running(spec, -1);
        if (id != null) {
            limiter.release(this);
        }
    }

    private void stopRenewal() {
        if (renewal != null) {
            renewal.cancel();
            renewal = null;
        }
    }
}
