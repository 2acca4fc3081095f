package dev.tollgate;

import java.time.Duration;

/**
 * A lock that several servers share. Each lock expires after the time to live it was taken with,
 * whether or not its holder released it, so a holder that dies cannot keep it; a holder whose job runs
 * longer can {@linkplain LockHandle#keepAlive() keep it alive}.
 *
 * <p>Each acquisition carries a {@linkplain LockHandle#fencingToken() fencing token} that only grows
 * per lock name: a resource that remembers the highest token it has seen can refuse a write from a
 * holder whose lock has since expired and been taken by someone else.
 *
 * <p>{@link #close()} stops every keep-alive and the listener for release notices; the locks held stay
 * held until released or their ttl passes.
 */
public interface DistributedLock extends AutoCloseable {

    /**
     * {@code name} when it can name a lock: {@link LimitRules#LOCK_NAME_RULE}.
     *
     * @throws IllegalArgumentException when it cannot
     */
    static String checkName(String name) {
        if (name == null || !LimitRules.LOCK_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "lock name must be " + LimitRules.LOCK_NAME_RULE + ", but was '" + name + "'");
        }
        return name;
    }

    /**
     * Takes the lock {@code name} for {@code ttl} if nobody holds it, without waiting.
     *
     * @param name letters, digits, {@code _ . -}; 1 to 128 characters
     * @param ttl how long the lock is held at most, &gt; 0 (rounded up to whole milliseconds)
     * @return {@link Acquisition.Acquired} with the handle, {@link Acquisition.HeldElsewhere}, or
     *     {@link Acquisition.Unavailable} when the lock's store could not be asked: never "acquired"
     *     when unsure
     * @throws IllegalArgumentException when {@code name} or {@code ttl} is invalid
     */
    Acquisition tryAcquire(String name, Duration ttl);

    /**
     * Takes the lock {@code name} for {@code ttl}, waiting up to {@code maxWait} while another holder
     * has it. The wait ends when the holder releases it (a release notice wakes the waiter), when the
     * holder's ttl passes, or at {@code maxWait}, never later; a poll every so often covers a notice
     * that was lost. When several wait, one gets it and the others wait on.
     *
     * @param maxWait how long to wait at most, &ge; 0 ({@code 0}: one attempt, like {@link
     *     #tryAcquire(String, Duration)})
     * @return as {@link #tryAcquire(String, Duration)}: {@link Acquisition.HeldElsewhere} when the
     *     wait ran out (or the thread was interrupted, whose flag is then set again), {@link
     *     Acquisition.Unavailable} at once when the store cannot be asked
     * @throws IllegalArgumentException when {@code name}, {@code ttl} or {@code maxWait} is invalid
     */
    Acquisition tryAcquire(String name, Duration ttl, Duration maxWait);

    /** Stops keep-alives and release notices; held locks stay held until released or their ttl passes. */
    @Override
    default void close() {}
}
