package dev.tollgate.lock;

import dev.tollgate.core.ExpiringMap;
import dev.tollgate.core.MicrosClock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Locks in this JVM's memory, with the same contract as {@link RedisDistributedLock}: expiry, token
 * checks and fencing tokens. They exclude only callers in this JVM, so two servers each take the
 * "same" lock: it stands in when no Redis is configured, not for a cluster.
 */
public final class InProcessDistributedLock implements DistributedLock {

    private final ExpiringMap<Entry> locks;
    private final ConcurrentHashMap<String, Long> fences = new ConcurrentHashMap<>();
    private final LockTokens tokens = new LockTokens();
    private final LockOwner owner = new Owner();

    public InProcessDistributedLock(MicrosClock clock) {
        this.locks = new ExpiringMap<>(clock, Entry::expiresAt);
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMicros = LockNames.ttlMillis(name, ttl) * 1000;
        String token = tokens.next();
        return locks.update(name, (held, now) -> {
            if (held != null) {
                return new ExpiringMap.Updated<>(
                        held, new Acquisition.HeldElsewhere(name, Duration.ofNanos((held.expiresAt - now) * 1000)));
            }
            // Under the map's lock for name, so fencing tokens grow in the order locks are taken: above
            // the last one, and never below the clock in microseconds, as in Redis.
            Entry taken =
                    new Entry(token, fences.merge(name, now, (last, t) -> Math.max(last + 1, t)), now + ttlMicros);
            return new ExpiringMap.Updated<>(
                    taken, new Acquisition.Acquired(new HeldLock(owner, name, token, taken.fence)));
        });
    }

    private final class Owner implements LockOwner {
        @Override
        public boolean release(String name, String token) {
            return locks.update(name, (e, now) -> {
                boolean ours = e != null && e.token.equals(token);
                return new ExpiringMap.Updated<>(ours ? null : e, ours);
            });
        }

        @Override
        public boolean expireIn(String name, String token, long ttlMillis) {
            return locks.update(name, (e, now) -> {
                boolean ours = e != null && e.token.equals(token);
                Entry next = ours ? new Entry(token, e.fence, now + ttlMillis * 1000) : e;
                return new ExpiringMap.Updated<>(next, ours);
            });
        }
    }

    private record Entry(String token, long fence, long expiresAt) {}
}
