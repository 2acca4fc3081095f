package dev.tollgate;

import java.time.Duration;
import java.util.Optional;

/** The answer to {@link DistributedLock#tryAcquire}: acquired, held by someone else, or unknown. */
public sealed interface Acquisition {

    /** The lock asked for. */
    String lockName();

    /** The handle, when the lock was acquired. */
    default Optional<LockHandle> handle() {
        return Optional.empty();
    }

    /** The lock is ours until it is released or {@code lock.ttl} passes. */
    record Acquired(LockHandle lock) implements Acquisition {
        public Acquired {
            if (lock == null) {
                throw new IllegalArgumentException("lock must not be null");
            }
        }

        @Override
        public String lockName() {
            return lock.name();
        }

        @Override
        public Optional<LockHandle> handle() {
            return Optional.of(lock);
        }
    }

    /**
     * Someone else holds the lock.
     *
     * @param expiresIn when their lock expires unless they release or extend it; {@link
     *     java.time.temporal.ChronoUnit#FOREVER}'s duration when the key has no expiry (set by hand)
     */
    record HeldElsewhere(String lockName, Duration expiresIn) implements Acquisition {
        public HeldElsewhere {
            DistributedLock.checkName(lockName);
            if (expiresIn == null || expiresIn.isNegative()) {
                throw new IllegalArgumentException("expiresIn must be >= 0, but was " + expiresIn);
            }
        }
    }

    /**
     * The lock's store could not be asked (connection refused, timeout, server error), so whether the
     * lock is free is unknown. A timed-out request may still have taken the lock on the server: then
     * nobody holds its token and it stays taken until its time to live passes.
     */
    record Unavailable(String lockName, RuntimeException cause) implements Acquisition {
        public Unavailable {
            DistributedLock.checkName(lockName);
            if (cause == null) {
                throw new IllegalArgumentException("cause must not be null");
            }
        }
    }
}
