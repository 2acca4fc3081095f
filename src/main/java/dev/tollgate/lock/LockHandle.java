package dev.tollgate.lock;

import java.time.Duration;

/**
 * A lock this caller holds. Releasing and extending act only while the lock is still this caller's:
 * once it has expired and been taken by someone else, both do nothing and return {@code false}.
 *
 * <p>{@link #close()} releases it, for try-with-resources.
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
     * Releases the lock if it is still this caller's.
     *
     * @return {@code true} if it was released, {@code false} if it had expired (and may be someone
     *     else's by now)
     * @throws LockUnavailableException when the store could not be asked; the lock then expires by
     *     itself
     */
    boolean release();

    /**
     * Sets the lock to expire {@code ttl} from now if it is still this caller's. A shorter {@code ttl}
     * than the remaining time shortens the hold.
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
