package dev.tollgate.lock;

import dev.tollgate.LockAdmin;
import dev.tollgate.LockHold;
import dev.tollgate.core.ExpiringMap;
import dev.tollgate.core.MicrosClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Locks in this JVM's memory, with the same contract as {@link RedisDistributedLock}: expiry, token
 * checks, fencing tokens, keep-alive and waiting. They exclude only callers in this JVM, so two servers
 * each take the "same" lock: it stands in when no Redis is configured, not for a cluster.
 */
public final class InProcessDistributedLock implements DistributedLock, LockAdmin {

    private final MicrosClock clock;
    private final ExpiringMap<Entry> locks;
    private final ConcurrentHashMap<String, Long> fences = new ConcurrentHashMap<>();
    private final LockTokens tokens;
    private final LockOwner owner = new Owner();
    private final ReleaseNotices notices = new ReleaseNotices();
    private final Keeper keeper;
    private final LockWaiter waiter;

    public InProcessDistributedLock(MicrosClock clock) {
        this(clock, LockLostListener.NONE);
    }

    /** @param listener told of every lock found lost */
    public InProcessDistributedLock(MicrosClock clock, LockLostListener listener) {
        this(clock, listener, LockNames.thisProcess());
    }

    /**
     * @param listener told of every lock found lost
     * @param holder the name its locks are held under ({@link LockNames#checkHolder})
     */
    public InProcessDistributedLock(MicrosClock clock, LockLostListener listener, String holder) {
        this(clock, Keeper.daemon(listener), Duration.ofSeconds(1), holder);
    }

    InProcessDistributedLock(MicrosClock clock, Keeper keeper, Duration pollInterval, String holder) {
        this.clock = clock;
        this.tokens = new LockTokens(holder);
        this.locks = new ExpiringMap<>(clock, Entry::expiresAt);
        this.keeper = keeper;
        this.waiter = new LockWaiter(notices, pollInterval, keeper::nanoTime);
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMillis = LockNames.ttlMillis(name, ttl);
        String token = tokens.next();
        long sentAt = keeper.nanoTime();
        return locks.update(name, (held, now) -> {
            if (held != null) {
                return new ExpiringMap.Updated<>(
                        held, new Acquisition.HeldElsewhere(name, Duration.ofNanos((held.expiresAt - now) * 1000)));
            }
            // Under the map's lock for name, so fencing tokens grow in the order locks are taken: above
            // the last one, and never below the clock in microseconds, as in Redis.
            Entry taken = new Entry(
                    token, fences.merge(name, now, (last, t) -> Math.max(last + 1, t)), now + ttlMillis * 1000);
            return new ExpiringMap.Updated<>(
                    taken,
                    new Acquisition.Acquired(new HeldLock(owner, keeper, name, token, taken.fence, ttlMillis, sentAt)));
        });
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl, Duration maxWait) {
        LockNames.ttlMillis(LockNames.check(name), ttl);
        return waiter.acquire(name, maxWait, n -> tryAcquire(n, ttl));
    }

    @Override
    public List<LockHold> held() {
        long now = clock.nowMicros();
        List<LockHold> held = new ArrayList<>();
        for (String name : new TreeSet<>(fences.keySet())) {
            locks.get(name)
                    .ifPresent(e -> held.add(new LockHold(
                            name,
                            LockTokens.holderOf(e.token),
                            e.fence,
                            Duration.ofNanos(Math.max(0, e.expiresAt - now) * 1000))));
        }
        return List.copyOf(held);
    }

    @Override
    public boolean forceRelease(String name) {
        return forceRelease(LockNames.check(name), e -> true);
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return forceRelease(LockNames.check(name), e -> e.fence == fencingToken);
    }

    private boolean forceRelease(String name, Predicate<Entry> holder) {
        boolean released = locks.update(name, (e, now) -> {
            boolean taken = e != null && holder.test(e);
            return new ExpiringMap.Updated<>(taken ? null : e, taken);
        });
        if (released) {
            notices.released(name);
        }
        return released;
    }

    @Override
    public void close() {
        keeper.close();
    }

    private final class Owner implements LockOwner {
        @Override
        public Ownership release(String name, String token) {
            Ownership answer = locks.update(name, (e, now) -> {
                Ownership o = ownership(e, token);
                return new ExpiringMap.Updated<>(o == Ownership.OURS ? null : e, o);
            });
            if (answer == Ownership.OURS) {
                notices.released(name);
            }
            return answer;
        }

        @Override
        public Ownership expireIn(String name, String token, long ttlMillis) {
            return locks.update(name, (e, now) -> {
                Ownership o = ownership(e, token);
                Entry next = o == Ownership.OURS ? new Entry(token, e.fence, now + ttlMillis * 1000) : e;
                return new ExpiringMap.Updated<>(next, o);
            });
        }

        private Ownership ownership(Entry live, String token) {
            return live == null ? Ownership.EXPIRED : live.token.equals(token) ? Ownership.OURS : Ownership.TAKEN;
        }
    }

    private record Entry(String token, long fence, long expiresAt) {}
}
