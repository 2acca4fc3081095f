package dev.tollgate.internal.lock;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.KeepAlive;
import dev.tollgate.LockHandle;
import dev.tollgate.LockUnavailableException;
import dev.tollgate.internal.core.Failures;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Runs a job only if this caller takes its lock: the core that the {@link dev.tollgate.OncePerCluster}
 * interceptor delegates to, plain Java so that it can be tested without a container.
 *
 * <p>Fails closed: when the lock store cannot be asked the job is skipped, and each skipped run logs
 * one WARNING naming the lock and counts {@link LockMetrics#unavailable}. A job that finishes before
 * its {@link LockSpec#atLeast()} leaves the lock to expire then instead of releasing it. With {@link
 * LockSpec#keepAlive()} the lock is extended every ttl/3 while the job runs, and no longer.
 */
public final class OncePerClusterRunner {

    private static final Logger LOG = Logger.getLogger(OncePerClusterRunner.class.getName());

    private final DistributedLock locks;
    private final LockMetrics metrics;
    private final LongSupplier nanoTime;

    /**
     * @param nanoTime a monotonic clock in nanoseconds ({@code System::nanoTime}), to time the job
     *     against {@link LockSpec#atLeast()}
     */
    public OncePerClusterRunner(DistributedLock locks, LockMetrics metrics, LongSupplier nanoTime) {
        this.locks = locks;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
    }

    /** Takes the lock, runs {@code job} if it was taken, and lets the lock go; the job's exception passes through. */
    public JobRun run(LockSpec spec, Callable<?> job) throws Exception {
        Acquisition acquisition = locks.tryAcquire(spec.name(), spec.ttl());
        if (acquisition instanceof Acquisition.Acquired acquired) {
            metrics.acquired(spec.name());
            return new JobRun(RunOutcome.RAN, runHolding(spec, acquired.lock(), job));
        }
        if (acquisition instanceof Acquisition.HeldElsewhere held) {
            metrics.heldElsewhere(spec.name());
            LOG.fine(() -> "Tollgate: lock '" + spec.name() + "' is held elsewhere for another "
                    + held.expiresIn().toMillis() + " ms; skipping the job here");
            return JobRun.skipped(RunOutcome.HELD_ELSEWHERE);
        }
        metrics.unavailable(spec.name());
        RuntimeException cause = ((Acquisition.Unavailable) acquisition).cause();
        LOG.warning(() -> "Tollgate: lock '" + spec.name() + "' is unavailable (the lock store could not be asked: "
                + Failures.describe(cause) + "): job skipped (fail closed)");
        return JobRun.skipped(RunOutcome.UNAVAILABLE);
    }

    private Object runHolding(LockSpec spec, LockHandle lock, Callable<?> job) throws Exception {
        long start = nanoTime.getAsLong();
        KeepAlive keepAlive = spec.keepAlive() ? lock.keepAlive() : () -> {};
        try {
            return job.call();
        } finally {
            keepAlive.close();
            letGo(spec, lock, Duration.ofNanos(nanoTime.getAsLong() - start));
        }
    }

    private void letGo(LockSpec spec, LockHandle lock, Duration ran) {
        // A loss the keep-alive found was logged then; the end of the job adds nothing to it.
        boolean reported = lock instanceof HeldLock held && held.foundLost();
        Duration holdOn = spec.atLeast().minus(ran);
        try {
            // Shortening rather than releasing keeps a peer whose clock runs late from starting it again.
            boolean stillOurs = holdOn.isNegative() || holdOn.isZero() ? lock.release() : lock.extend(holdOn);
            if (!stillOurs && !reported) {
                LOG.warning(() -> "Tollgate: lock '" + spec.name() + "' expired while its job ran (" + ran.toMillis()
                        + " ms, ttl " + spec.ttl().toMillis() + " ms): another server may have run it too;"
                        + " raise the ttl above the longest run, or keep the lock alive");
            }
        } catch (LockUnavailableException e) {
            LOG.warning(() -> "Tollgate: lock '" + spec.name() + "' could not be let go after its job ("
                    + Failures.describe(e) + "); it expires by itself when its ttl passes");
        }
    }
}
