package dev.tollgate.internal.lock;

import dev.tollgate.Acquisition;
import dev.tollgate.DegradedCause;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockAdmin;
import dev.tollgate.LockHold;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.core.LogThrottle;
import dev.tollgate.internal.core.MicrosClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.logging.Logger;

/**
 * Locks in this JVM's memory, with the same contract as {@link RedisDistributedLock}: expiry, token
 * checks, fencing tokens, keep-alive and waiting. They exclude only callers in this JVM, so two servers
 * each take the "same" lock: it stands in when no Redis is configured, not for a cluster.
 *
 * <p>Bounded: at most {@code maxNames} names are kept (a name's entry holds its lock and its last
 * fencing token). A held lock is never evicted, so no second holder gets in: over the bound, a new name
 * takes the place of one neither held nor with a fencing token ahead of the clock, or is refused
 * ({@link Acquisition.Unavailable}: not taken, as when Redis cannot be asked), with a WARNING at most
 * once a minute while it lasts. A name's fencing token is forgotten only once the clock has passed it,
 * so the next one, never below the clock, is still above it.
 */
public final class InProcessDistributedLock implements DistributedLock, LockAdmin {

    /** Names held at most by default: 100,000, as the in-process rate-limit stores' keys. */
    public static final int DEFAULT_MAX_NAMES = 100_000;

    private static final Logger LOG = Logger.getLogger(InProcessDistributedLock.class.getName());

    private final MicrosClock clock;
    private final ExpiringMap<Entry> locks;
    private final int maxNames;
    private final LogThrottle fullLog;
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
        this(clock, keeper, pollInterval, holder, DEFAULT_MAX_NAMES);
    }

    InProcessDistributedLock(MicrosClock clock, Keeper keeper, Duration pollInterval, String holder, int maxNames) {
        this.clock = clock;
        this.tokens = new LockTokens(holder);
        this.locks = ExpiringMap.keepingLive(clock, Entry::keptUntil, maxNames);
        this.maxNames = maxNames;
        this.fullLog = new LogThrottle(LogThrottle.MINUTE, keeper::nanoTime);
        this.keeper = keeper;
        this.waiter = new LockWaiter(notices, pollInterval, keeper::nanoTime);
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMillis = LockNames.ttlMillis(name, ttl);
        String token = tokens.next();
        long sentAt = keeper.nanoTime();
        try {
            return locks.update(name, (e, now) -> {
                if (e != null && e.heldAt(now)) {
                    return new ExpiringMap.Updated<>(
                            e, new Acquisition.HeldElsewhere(name, Duration.ofNanos((e.expiresAt - now) * 1000)));
                }
                // Under the map's lock for name, so fencing tokens grow in the order locks are taken: above
                // the last one, and never below the clock in microseconds, as in Redis.
                Entry taken = new Entry(token, Math.max(e == null ? 0 : e.fence + 1, now), now + ttlMillis * 1000);
                return new ExpiringMap.Updated<>(
                        taken,
                        new Acquisition.Acquired(
                                new HeldLock(owner, keeper, name, token, taken.fence, ttlMillis, sentAt)));
            });
        } catch (ExpiringMap.Full full) {
            if (fullLog.allow("full")) {
                LOG.warning(() -> "Tollgate: the in-process locks hold " + maxNames + " names, the most they may:"
                        + " lock '" + name + "' and every other new name are refused until some expire");
            }
            return new Acquisition.Unavailable(
                    name,
                    new StoreUnavailableException(
                            "lock '" + name + "' refused: the in-process locks hold " + maxNames + " names",
                            full,
                            DegradedCause.SATURATED));
        }
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
        locks.live().forEach((name, e) -> {
            if (e.heldAt(now)) {
                held.add(new LockHold(
                        name,
                        LockTokens.holderOf(e.token),
                        e.fence,
                        Duration.ofNanos(Math.max(0, e.expiresAt - now) * 1000)));
            }
        });
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
            boolean taken = e != null && e.heldAt(now) && holder.test(e);
            return new ExpiringMap.Updated<>(taken ? e.released() : e, taken);
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
                Ownership o = ownership(e, token, now);
                return new ExpiringMap.Updated<>(o == Ownership.OURS ? e.released() : e, o);
            });
            if (answer == Ownership.OURS) {
                notices.released(name);
            }
            return answer;
        }

        @Override
        public Ownership expireIn(String name, String token, long ttlMillis) {
            return locks.update(name, (e, now) -> {
                Ownership o = ownership(e, token, now);
                Entry next = o == Ownership.OURS ? new Entry(token, e.fence, now + ttlMillis * 1000) : e;
                return new ExpiringMap.Updated<>(next, o);
            });
        }

        private Ownership ownership(Entry e, String token, long now) {
            return e == null || !e.heldAt(now)
                    ? Ownership.EXPIRED
                    : e.token.equals(token) ? Ownership.OURS : Ownership.TAKEN;
        }
    }

    /** Names kept, expired or not (for tests of the bound). */
    int size() {
        return locks.size();
    }

    /**
     * A name's lock ({@code token} null: free) and its last fencing token, kept while the lock is held
     * and until the clock has passed the token, so a forgotten name's next token is still above it.
     */
    private record Entry(String token, long fence, long expiresAt) {
        boolean heldAt(long now) {
            return token != null && expiresAt > now;
        }

        long keptUntil() {
            return Math.max(token == null ? 0 : expiresAt, fence + 1);
        }

        Entry released() {
            return new Entry(null, fence, 0);
        }
    }
}
