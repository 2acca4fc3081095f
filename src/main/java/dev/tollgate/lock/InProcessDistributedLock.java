package dev.tollgate.lock;

import dev.tollgate.core.MicrosClock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Locks in this JVM's memory, with the same contract as {@link RedisDistributedLock}: expiry, token
 * checks and fencing tokens. They exclude only callers in this JVM, so two servers each take the
 * "same" lock: it stands in when no Redis is configured, not for a cluster.
 */
public final class InProcessDistributedLock implements DistributedLock {

    private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> fences = new ConcurrentHashMap<>();
    private final LockTokens tokens = new LockTokens();
    private final LockOwner owner = new Owner();
    private final MicrosClock clock;

    public InProcessDistributedLock(MicrosClock clock) {
        this.clock = clock;
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMicros = LockNames.ttlMillis(name, ttl) * 1000;
        String token = tokens.next();
        long now = clock.nowMicros();
        Entry held =
                locks.compute(name, (k, e) -> e == null || e.expired(now) ? take(k, token, now, now + ttlMicros) : e);
        if (held.token.equals(token)) {
            return new Acquisition.Acquired(new HeldLock(owner, name, token, held.fence));
        }
        return new Acquisition.HeldElsewhere(name, Duration.ofNanos((held.expiresAt - now) * 1000));
    }

    /**
     * Runs under the map's lock for {@code name}, so fencing tokens grow in the order locks are taken:
     * above the last one, and never below the clock in microseconds, as in Redis.
     */
    private Entry take(String name, String token, long now, long expiresAt) {
        return new Entry(token, fences.merge(name, now, (last, t) -> Math.max(last + 1, t)), expiresAt);
    }

    private final class Owner implements LockOwner {
        @Override
        public boolean release(String name, String token) {
            long now = clock.nowMicros();
            boolean[] done = {false};
            locks.computeIfPresent(name, (k, e) -> {
                done[0] = e.ownedBy(token, now);
                return done[0] || e.expired(now) ? null : e;
            });
            return done[0];
        }

        @Override
        public boolean expireIn(String name, String token, long ttlMillis) {
            long now = clock.nowMicros();
            boolean[] done = {false};
            locks.computeIfPresent(name, (k, e) -> {
                done[0] = e.ownedBy(token, now);
                return done[0] ? new Entry(token, e.fence, now + ttlMillis * 1000) : e;
            });
            return done[0];
        }
    }

    private record Entry(String token, long fence, long expiresAt) {
        boolean expired(long now) {
            return now >= expiresAt;
        }

        boolean ownedBy(String candidate, long now) {
            return !expired(now) && token.equals(candidate);
        }
    }
}
