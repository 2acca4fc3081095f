package dev.tollgate;

import java.time.Duration;

/**
 * A lock this caller holds. Releasing and extending act only while the lock is still this caller's:
 * once it has expired and been taken by someone else, both do nothing and return {@code false}, and
 * the loss is reported once ({@link dev.tollgate.LockLost}).
 *
 * <p>{@link #close()} releases it, for try-with-resources. A job longer than the ttl can {@link
 * #keepAlive()} the lock while it runs.
 */
public interface LockHandle extends AutoCloseable {

    /** The lock's name. */
    String name();

    /**
     * This acquisition's fencing token: larger than that of every earlier acquisition of the same
     * lock name. Pass it with every write to the protected resource and let the resource refuse writes
     * whose token is lower than the highest it has seen.
     */
    long fencingToken();

    /**
     * Whether this caller still holds the lock, as far as this server can tell without asking the
     * store: not released, not found lost, and its ttl, counted on this server's monotonic clock from
     * when the acquire (or the last extend the store confirmed) was sent, not yet passed. So a server
     * that was paused past the ttl answers {@code false} at once, before a keep-alive can ask the store.
     *
     * <p>A hint for a long job to stop early, not a guarantee: the lock can be lost the instant after
     * this answers {@code true}. Fencing tokens are the guarantee.
     */
    boolean isHeld();

    /**
     * Extends the lock every third of its ttl (the ttl it was acquired with), through the same
     * token-checked script as {@link #extend}, until it is released, closed, found lost, or the
     * returned keep-alive is closed. Runs on a daemon thread, which the lock's {@code close()} stops:
     * it never outlives the application or the JVM. Calling it again while it runs changes nothing.
     *
     * <p>When an extend is refused (the ttl passed during a pause, another holder took the lock) or the
     * store cannot be reached until the ttl has passed, the keep-alive stops, {@link #isHeld()} turns
     * false, and the loss is reported ({@link dev.tollgate.LockLost}) with one WARNING.
     *
     * @return what stops it; closing it leaves the lock held until released or its ttl passes
     */
    KeepAlive keepAlive();

    /**
     * Releases the lock if it is still this caller's, and stops its keep-alive.
     *
     * @return {@code true} if it was released, {@code false} if it had expired (and may be someone
     *     else's by now)
     * @throws LockUnavailableException when the store could not be asked; the lock then expires by
     *     itself
     */
    boolean release();

    /**
     * Sets the lock to expire {@code ttl} from now if it is still this caller's. A shorter {@code ttl}
     * than the remaining time shortens the hold (stop a keep-alive first, or its next round restores
     * the full ttl).
     *
     * @param ttl &gt; 0, rounded up to whole milliseconds
     * @return {@code true} if the expiry was set, {@code false} if the lock is no longer this caller's
     * @throws LockUnavailableException when the store could not be asked
     */
    boolean extend(Duration ttl);

    /**
     * Releases the lock, like {@link #release()}, but never throws: when the store cannot be asked,
     * a WARNING is logged and the lock expires by itself.
     */
    @Override
    void close();
}
