package dev.tollgate.lock;

import java.time.Duration;

/**
 * How one {@code @OncePerCluster} job is locked.
 *
 * @param name the lock's name (letters, digits, {@code _ . -}, 1 to 128 characters)
 * @param ttl how long the lock is held at most; &gt; 0
 * @param atLeast how long the lock is held at least, even when the job ends sooner; 0..ttl
 */
public record LockSpec(String name, Duration ttl, Duration atLeast) {

    public LockSpec {
        LockNames.check(name);
        LockNames.ttlMillis(name, ttl);
        if (atLeast == null || atLeast.isNegative() || atLeast.compareTo(ttl) > 0) {
            throw new IllegalArgumentException(
                    "lock '" + name + "': atLeast must be between 0 and ttl (" + ttl + "), but was " + atLeast);
        }
    }

    /** Held at most {@code ttl}, released as soon as the job ends. */
    public static LockSpec of(String name, Duration ttl) {
        return new LockSpec(name, ttl, Duration.ZERO);
    }
}
