package dev.tollgate.lock;

import dev.tollgate.core.MicrosClock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Locks in this JVM's memory, with the same contract as {@link RedisDistributedLock}: expiry, token
 * checks, fencing tokens, keep-alive and waiting. They exclude only callers in this JVM, so two servers
 * each take the "same" lock: it stands in when no Redis is configured, not for a cluster.
 */
public final class InProcessDistributedLock implements DistributedLock {

    private final ConcurrentHashMap<String, Entry> locks = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, Long> fences = new ConcurrentHashMap<>();
    private final LockTokens tokens = new LockTokens();
    private final LockOwner owner = new Owner();
    private final ReleaseNotices notices = new ReleaseNotices();
    private final MicrosClock clock;
    private final Keeper keeper;
    private final LockWaiter waiter;

    public InProcessDistributedLock(MicrosClock clock) {
        this(clock, LockLostListener.NONE);
    }

    /** @param listener told of every lock found lost */
    public InProcessDistributedLock(MicrosClock clock, LockLostListener listener) {
        this(clock, Keeper.daemon(listener), Duration.ofSeconds(1));
    }

    InProcessDistributedLock(MicrosClock clock, Keeper keeper, Duration pollInterval) {
        this.clock = clock;
        this.keeper = keeper;
        this.waiter = new LockWaiter(notices, pollInterval, keeper::nanoTime);
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMillis = LockNames.ttlMillis(name, ttl);
        String token = tokens.next();
        long sentAt = keeper.nanoTime();
        long now = clock.nowMicros();
        Entry held =
                locks.compute(name, (k, e) -> e == null || e.expired(now) ? take(k, token, now + ttlMillis * 1000) : e);
        if (held.token.equals(token)) {
            return new Acquisition.Acquired(new HeldLock(owner, keeper, name, token, held.fence, ttlMillis, sentAt));
        }
        return new Acquisition.HeldElsewhere(name, Duration.ofNanos((held.expiresAt - now) * 1000));
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl, Duration maxWait) {
        LockNames.ttlMillis(LockNames.check(name), ttl);
        return waiter.acquire(name, maxWait, n -> tryAcquire(n, ttl));
    }

    @Override
    public void close() {
        keeper.close();
    }

    /** Runs under the map's lock for {@code name}, so fencing tokens grow in the order locks are taken. */
    private Entry take(String name, String token, long expiresAt) {
        return new Entry(token, fences.merge(name, 1L, Long::sum), expiresAt);
    }

    private final class Owner implements LockOwner {
        @Override
        public Ownership release(String name, String token) {
            Ownership answer = act(name, token, e -> null);
            if (answer == Ownership.OURS) {
                notices.released(name);
            }
            return answer;
        }

        @Override
        public Ownership expireIn(String name, String token, long ttlMillis) {
            long now = clock.nowMicros();
            return act(name, token, e -> new Entry(token, e.fence, now + ttlMillis * 1000));
        }

        /** Applies {@code change} to the entry if {@code token} holds it; an expired entry is dropped. */
        private Ownership act(String name, String token, java.util.function.UnaryOperator<Entry> change) {
            long now = clock.nowMicros();
            Ownership[] answer = {Ownership.EXPIRED};
            locks.computeIfPresent(name, (k, e) -> {
                if (e.expired(now)) {
                    return null;
                }
                if (!e.token.equals(token)) {
                    answer[0] = Ownership.TAKEN;
                    return e;
                }
                answer[0] = Ownership.OURS;
                return change.apply(e);
            });
            return answer[0];
        }
    }

    private record Entry(String token, long fence, long expiresAt) {
        boolean expired(long now) {
            return now >= expiresAt;
        }
    }
}
