package dev.tollgate.lock;

import java.time.Duration;

/**
 * A lock that several servers share, taken without waiting. Each lock expires after the time to live
 * it was taken with, whether or not its holder released it, so a holder that dies cannot keep it.
 *
 * <p>Each acquisition carries a {@linkplain LockHandle#fencingToken() fencing token} that only grows
 * per lock name: a resource that remembers the highest token it has seen can refuse a write from a
 * holder whose lock has since expired and been taken by someone else.
 */
public interface DistributedLock {

    /**
     * Takes the lock {@code name} for {@code ttl} if nobody holds it.
     *
     * @param name letters, digits, {@code _ . -}; 1 to 128 characters
     * @param ttl how long the lock is held at most, &gt; 0 (rounded up to whole milliseconds)
     * @return {@link Acquisition.Acquired} with the handle, {@link Acquisition.HeldElsewhere}, or
     *     {@link Acquisition.Unavailable} when the lock's store could not be asked: never "acquired"
     *     when unsure
     * @throws IllegalArgumentException when {@code name} or {@code ttl} is invalid
     */
    Acquisition tryAcquire(String name, Duration ttl);
}
