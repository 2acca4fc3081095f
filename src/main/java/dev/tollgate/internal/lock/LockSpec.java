package dev.tollgate.internal.lock;

import dev.tollgate.ConfigProblem;
import dev.tollgate.LimitRules;
import java.time.Duration;
import java.util.List;

/**
 * How one {@code @OncePerCluster} job is locked.
 *
 * @param name the lock's name (letters, digits, {@code _ . -}, 1 to 128 characters)
 * @param ttl how long the lock is held at most, or with {@code keepAlive} between two extends ({@link
 *     LimitRules#checkLock})
 * @param atLeast how long the lock is held at least, even when the job ends sooner; 0..ttl
 * @param keepAlive whether the lock is extended every ttl/3 while the job runs
 */
public record LockSpec(String name, Duration ttl, Duration atLeast, boolean keepAlive) {

    public LockSpec {
        LockNames.check(name);
        LockNames.ttlMillis(name, ttl);
        if (atLeast == null) {
            throw new IllegalArgumentException("lock '" + name + "': atLeast must not be null");
        }
        List<ConfigProblem> problems = LimitRules.checkLock(ttl, atLeast);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("lock '" + name + "': "
                    + String.join(
                            "; ", problems.stream().map(p -> p.describe("")).toList()));
        }
    }

    /** Without keep-alive. */
    public LockSpec(String name, Duration ttl, Duration atLeast) {
        this(name, ttl, atLeast, false);
    }

    /** Held at most {@code ttl}, released as soon as the job ends. */
    public static LockSpec of(String name, Duration ttl) {
        return new LockSpec(name, ttl, Duration.ZERO);
    }

    /** This spec with keep-alive on. */
    public LockSpec keptAlive() {
        return new LockSpec(name, ttl, atLeast, true);
    }
}
