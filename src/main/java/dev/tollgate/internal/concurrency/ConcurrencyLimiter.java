package dev.tollgate.internal.concurrency;

import dev.tollgate.Permit;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.ratelimit.StoreKeys;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The concurrency core: before a call, take one of the limit's slots for the caller's key (a lease in
 * the store); after it, free the slot. While the call runs its lease is renewed every lease/3, so a
 * call may run as long as it takes while a server that dies frees its slots within one lease. When the
 * store cannot be asked (through the guard) the limit's degraded decision stands in: fail open admits
 * without a lease, fail closed refuses. Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class ConcurrencyLimiter implements AutoCloseable {

    /** The Retry-After hint of a refusal, in seconds: when calls end is not known. */
    public static final long RETRY_AFTER_SECONDS = 1;

    static final Logger LOG = Logger.getLogger(ConcurrencyLimiter.class.getName());

    private final ConcurrencyStore store;
    private final Guard guard;
    private final ConcurrencyListener listener;
    private final Supplier<Scheduler> schedulers;
    private final StoreKeys keys;
    private final SecureRandom random = new SecureRandom();
    private Scheduler scheduler; // built by the first admitted call
    private boolean closed;

    /** @param schedulers builds the lease-renewal scheduler when the first call is admitted */
    public ConcurrencyLimiter(
            ConcurrencyStore store, Guard guard, ConcurrencyListener listener, Supplier<Scheduler> schedulers) {
        this(store, guard, listener, schedulers, StoreKeys.DEFAULT);
    }

    /** As above, its keys named by {@code keys} (under a {@code tollgate.redis.key-prefix}). */
    public ConcurrencyLimiter(
            ConcurrencyStore store,
            Guard guard,
            ConcurrencyListener listener,
            Supplier<Scheduler> schedulers,
            StoreKeys keys) {
        this.keys = keys;
        this.store = store;
        this.guard = guard;
        this.listener = listener;
        this.schedulers = schedulers;
    }

    /** Renews leases on two daemon threads. */
    public ConcurrencyLimiter(ConcurrencyStore store, Guard guard, ConcurrencyListener listener) {
        this(store, guard, listener, StoreKeys.DEFAULT);
    }

    /** Renews leases on two daemon threads; its keys named by {@code keys}. */
    public ConcurrencyLimiter(ConcurrencyStore store, Guard guard, ConcurrencyListener listener, StoreKeys keys) {
        this(store, guard, listener, () -> Scheduler.daemon("tollgate-lease-renewal", 2), keys);
    }

    /** The store key of {@code clientKey}'s slots under {@code spec}. */
    public String storeKey(ConcurrencySpec spec, String clientKey) {
        return keys.inFlight(spec.name(), clientKey);
    }

    /**
     * Takes a slot of {@code spec} for {@code clientKey} if one is free. Close the permit when the call
     * ends (admitted or not: closing a refusal does nothing).
     */
    public Permit tryEnter(ConcurrencySpec spec, String clientKey) {
        String key = storeKey(spec, clientKey);
        String id = leaseId();
        ConcurrencyStore.Taking taking;
        try {
            taking = guard.call(key, () -> store.take(spec, key, id));
        } catch (StoreUnavailableException e) {
            listener.onDegraded(spec, spec.failOpen(), e.degradedCause());
            return spec.failOpen() ? new Leased(this, spec, null, null, 0, true) : Refused.degraded(spec);
        }
        listener.onDecision(spec, taking.taken(), false);
        if (!taking.taken()) {
            return new Refused(spec.name(), taking.inFlight(), false);
        }
        return new Leased(this, spec, key, id, taking.inFlight(), false);
    }

    void renew(Leased p) {
        try {
            if (!guard.call(p.key, () -> store.renew(p.spec, p.key, p.id))) {
                p.lost();
            }
        } catch (StoreUnavailableException e) {
            // Tried again next round; the lease holds for a whole lease after the last renewal.
            LOG.fine(() -> "Tollgate: the lease of concurrency limit '" + p.spec.name() + "' could not be renewed ("
                    + Failures.describe(e) + ")");
        }
    }

    void release(Leased p) {
        try {
            guard.call(p.key, () -> {
                store.release(p.key, p.id);
                return null;
            });
        } catch (StoreUnavailableException e) {
            LOG.fine(() -> "Tollgate: a slot of concurrency limit '" + p.spec.name() + "' could not be freed ("
                    + Failures.describe(e) + "); its lease frees it");
        }
    }

    synchronized Scheduler.Task renewEvery(Duration period, Runnable task) {
        if (closed) {
            return () -> {};
        }
        if (scheduler == null) {
            scheduler = schedulers.get();
        }
        return scheduler.every(period, task);
    }

    ConcurrencyListener listener() {
        return listener;
    }

    private String leaseId() {
        byte[] bytes = new byte[16];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** Stops renewing leases; running calls keep their slots until they end or their leases expire. */
    @Override
    public synchronized void close() {
        closed = true;
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
