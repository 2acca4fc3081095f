package dev.tollgate.internal.lock;

import dev.tollgate.LockLost;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.Scheduler;
import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * What a lock's handles share besides the store: the keep-alive scheduler (built on first use, so a
 * server that never keeps a lock alive starts no thread), the lost-lock listener and a monotonic clock.
 */
final class Keeper implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Keeper.class.getName());

    private final Supplier<Scheduler> schedulers;
    private final LockLostListener listener;
    private final LongSupplier nanoTime;
    private Scheduler scheduler;
    private boolean closed;

    Keeper(Supplier<Scheduler> schedulers, LockLostListener listener, LongSupplier nanoTime) {
        this.schedulers = schedulers;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    /** Daemon keep-alive threads and {@link System#nanoTime()}. */
    static Keeper daemon(LockLostListener listener) {
        return new Keeper(() -> Scheduler.daemon("tollgate-lock-keepalive", 1), listener, System::nanoTime);
    }

    long nanoTime() {
        return nanoTime.getAsLong();
    }

    synchronized Scheduler.Task every(Duration period, Runnable task) {
        if (closed) {
            throw new IllegalStateException("the lock is closed: no keep-alive can start");
        }
        if (scheduler == null) {
            scheduler = schedulers.get();
        }
        return scheduler.every(period, task);
    }

    /** Tells the listener; logs a WARNING when nobody else hears of it (a keep-alive found it). */
    void lost(LockLost lost, boolean log) {
        if (log) {
            LOG.warning(() -> "Tollgate: lock '" + lost.lockName() + "' (fencing token " + lost.fencingToken()
                    + ") was lost while held: " + describe(lost.reason())
                    + "; another server may be running its job now");
        }
        try {
            listener.lockLost(lost);
        } catch (RuntimeException e) {
            LOG.warning(() -> "Tollgate: a listener failed on the loss of lock '" + lost.lockName() + "' ("
                    + Failures.describe(e) + ")");
        }
    }

    private static String describe(LockLost.Reason reason) {
        return switch (reason) {
            case EXPIRED -> "its ttl passed (was this server paused?)";
            case TAKEN -> "its ttl passed and another holder took it (was this server paused?)";
            case UNCONFIRMED -> "the lock store could not be reached to extend it before its ttl passed";
        };
    }

    /** Stops every keep-alive; locks stay held until released or their ttl passes. */
    @Override
    public synchronized void close() {
        closed = true;
        if (scheduler != null) {
            scheduler.close();
        }
    }
}
