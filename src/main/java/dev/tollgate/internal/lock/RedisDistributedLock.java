package dev.tollgate.internal.lock;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockAdmin;
import dev.tollgate.LockHandle;
import dev.tollgate.LockHold;
import dev.tollgate.LockUnavailableException;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.SharedCall;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisException;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.Subscription;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;

/**
 * Locks in Redis: the lock's key set with its expiry if absent, and the next fencing token (above the
 * last one, never below Redis {@code TIME} in microseconds), in one script, one round trip. Release
 * and extend are scripts that act only while the key still holds the token; release also publishes the
 * lock's name on {@value #RELEASED} (under the key prefix), which wakes the servers waiting for it.
 *
 * <p>Keys: {@code tollgate:lock:{<name>}} (the token, expiring) and {@code tollgate:fence:{<name>}}
 * (the last fencing token, never expiring), in one cluster slot, each under the key prefix ({@link
 * LockNames#lockKey}); and the names taken lately, for
 * operators' listings, in {@code tollgate:lock-names} ({@link LockIndex}).
 *
 * <p>Once Redis first answers, its {@code maxmemory-policy} is read: one WARNING when it may evict
 * keys, which can free a held lock.
 */
public final class RedisDistributedLock implements DistributedLock, LockAdmin {

    private static final Logger LOG = Logger.getLogger(RedisDistributedLock.class.getName());

    /** The channel of release notices without a key prefix: each message is the name of a lock just released. */
    public static final String RELEASED = LockNames.RELEASED;

    /** How often a waiter tries again when it hears nothing: only a lost notice makes it matter. */
    static final Duration POLL = Duration.ofSeconds(1);

    /** ... and while nobody listens to release notices (before the subscription is confirmed, or broken). */
    static final Duration DEAF_POLL = Duration.ofMillis(50);

    private static final LuaScript ACQUIRE = LuaScript.named("lock-acquire");
    private static final LuaScript RELEASE = LuaScript.named("lock-release");
    private static final LuaScript EXTEND = LuaScript.named("lock-extend");
    private static final LuaScript INSPECT = LuaScript.named("lock-inspect");

    private final GuardedRedis redis;
    private final KeyPrefix prefix;
    private final String released;
    private final Keeper keeper;
    private final LockTokens tokens;
    private final LockOwner owner = new Owner();
    private final ReleaseNotices notices = new ReleaseNotices();
    private final LockWaiter waiter;
    private final LockWaiter deafWaiter;
    private final LockIndex index;
    private final SharedCall<List<LockHold>> listing = new SharedCall<>(this::list);
    private final AtomicBoolean evictionChecked = new AtomicBoolean();
    private Subscription subscription; // guarded by this

    RedisDistributedLock(GuardedRedis redis, Keeper keeper, String holder) {
        this(redis, keeper, holder, KeyPrefix.NONE);
    }

    RedisDistributedLock(GuardedRedis redis, Keeper keeper, String holder, KeyPrefix prefix) {
        this.redis = redis;
        this.prefix = prefix;
        this.released = LockNames.releasedChannel(prefix);
        this.keeper = keeper;
        this.tokens = new LockTokens(holder);
        this.waiter = new LockWaiter(notices, POLL, keeper::nanoTime);
        this.deafWaiter = new LockWaiter(notices, DEAF_POLL, keeper::nanoTime);
        this.index = new LockIndex(redis, prefix);
    }

    /** Locks on a client the caller keeps and closes, with no guard: each call waits as long as Redis takes. */
    public static RedisDistributedLock using(RedisLink redis) {
        return using(GuardedRedis.unguarded(redis));
    }

    /**
     * Locks on a client the caller keeps and closes, behind its guard: with Tollgate's, a hung Redis costs
     * a lock call the budget only until the breaker opens, and then nothing.
     */
    public static RedisDistributedLock using(GuardedRedis redis) {
        return using(redis, LockLostListener.NONE);
    }

    /** As {@link #using(GuardedRedis)}, telling {@code listener} of every lock found lost. */
    public static RedisDistributedLock using(GuardedRedis redis, LockLostListener listener) {
        return using(redis, listener, LockNames.thisProcess());
    }

    /** As {@link #using(GuardedRedis, LockLostListener)}, its locks held under the name {@code holder}. */
    public static RedisDistributedLock using(GuardedRedis redis, LockLostListener listener, String holder) {
        return using(redis, listener, holder, KeyPrefix.NONE);
    }

    /** As {@link #using(GuardedRedis, LockLostListener, String)}, its keys and channel under {@code prefix}. */
    public static RedisDistributedLock using(
            GuardedRedis redis, LockLostListener listener, String holder, KeyPrefix prefix) {
        return new RedisDistributedLock(redis, Keeper.daemon(listener), holder, prefix);
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl) {
        LockNames.check(name);
        long ttlMillis = LockNames.ttlMillis(name, ttl);
        String token = tokens.next();
        long sentAt = keeper.nanoTime();
        List<?> reply;
        try {
            reply = (List<?>) eval(ACQUIRE, name, List.of(token, Long.toString(ttlMillis)));
        } catch (StoreUnavailableException e) {
            return new Acquisition.Unavailable(name, e);
        }
        checkEvictionPolicy();
        long value = (Long) reply.get(1);
        if ((Long) reply.get(0) == 1L) {
            index.taken(name, value);
            return new Acquisition.Acquired(new HeldLock(owner, keeper, name, token, value, ttlMillis, sentAt));
        }
        return new Acquisition.HeldElsewhere(
                name, value < 0 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(value));
    }

    @Override
    public Acquisition tryAcquire(String name, Duration ttl, Duration maxWait) {
        LockNames.ttlMillis(LockNames.check(name), ttl);
        LockWaiter.checkMaxWait(name, maxWait);
        boolean listening = listen().isListening();
        return (listening ? waiter : deafWaiter).acquire(name, maxWait, n -> tryAcquire(n, ttl));
    }

    /** The subscription to release notices, started by the first wait. */
    private synchronized Subscription listen() {
        if (subscription == null) {
            subscription = Subscription.start(redis.link(), released, notices::released, Duration.ofSeconds(1));
        }
        return subscription;
    }

    /** Whether release notices are heard now; for tests. */
    synchronized boolean listening() {
        return subscription != null && subscription.isListening();
    }

    @Override
    public void close() {
        keeper.close();
        synchronized (this) {
            if (subscription != null) {
                subscription.close();
            }
        }
    }

    /**
     * Logs one WARNING when Redis may evict keys (any {@code maxmemory-policy} but {@code noeviction}
     * with a {@code maxmemory} set). Asks Redis until it answers once, then never again: called when
     * the lock API is set up, and by the first acquisition.
     */
    public void checkEvictionPolicy() {
        if (evictionChecked.get()) {
            return;
        }
        List<String> infos;
        try {
            infos = redis.link().info("memory");
        } catch (RedisException e) {
            if (e.connectionFailed()) {
                return; // asked again by the next acquisition
            }
            if (evictionChecked.compareAndSet(false, true)) {
                LOG.fine(() -> "Tollgate: could not read Redis's maxmemory-policy (" + e.getMessage()
                        + "); locks need noeviction");
            }
            return;
        }
        if (evictionChecked.compareAndSet(false, true)) {
            EvictionPolicy.warning(infos, redis.link().description()).ifPresent(LOG::warning);
        }
    }

    /**
     * The locks held, read by name from the index of the names taken lately ({@link LockIndex}): one
     * round trip for the index and one per name, whatever else the database holds. Callers that overlap
     * share one reading.
     */
    @Override
    public List<LockHold> held() {
        return listing.get();
    }

    private List<LockHold> list() {
        Map<String, Long> names = index.names();
        Map<String, Long> free = new LinkedHashMap<>();
        List<LockHold> held = new ArrayList<>();
        for (Map.Entry<String, Long> n : new TreeMap<>(names).entrySet()) {
            Optional<Inspected> found = validName(n.getKey()) ? inspect(n.getKey()) : Optional.empty();
            found.ifPresentOrElse(h -> held.add(h.hold()), () -> free.put(n.getKey(), n.getValue()));
        }
        index.free(free);
        return List.copyOf(held);
    }

    private static boolean validName(String name) {
        try {
            LockNames.check(name);
            return true;
        } catch (IllegalArgumentException e) {
            return false; // not written by Tollgate: nothing to read, and it leaves the index
        }
    }

    @Override
    public boolean forceRelease(String name) {
        for (int attempt = 0; attempt < 3; attempt++) {
            Optional<Inspected> holder = inspect(LockNames.check(name));
            if (holder.isEmpty()) {
                return false;
            }
            long reply = forceRelease(holder.get());
            if (reply != -1) {
                return reply == 1; // 0: it expired meanwhile
            }
        }
        return false; // taken again at every attempt: a lock that busy has a holder by now in any case
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        Optional<Inspected> holder = inspect(LockNames.check(name));
        return holder.isPresent()
                && holder.get().hold().fencingToken() == fencingToken
                && forceRelease(holder.get()) == 1;
    }

    /** Releases the lock from the holder inspected (with its whole token): 1 released, 0 free, -1 another's. */
    private long forceRelease(Inspected holder) {
        String name = holder.hold().name();
        long reply = (Long) eval(RELEASE, name, List.of(holder.token(), released, name));
        if (reply == 1) {
            LOG.info(() -> "Tollgate: lock '" + name + "' was force-released from holder '"
                    + holder.hold().holder() + "' (fencing token "
                    + holder.hold().fencingToken()
                    + "); that holder finds it lost at its next extend, keep-alive or release");
        }
        return reply;
    }

    /** A holder as read: what an operator sees, and the token that proves it (never shown). */
    private record Inspected(LockHold hold, String token) {
        @Override
        public String toString() {
            return hold.toString(); // never the token
        }
    }

    /** Who holds {@code name}, its fencing token and time left: one script, so all three are read together. */
    private Optional<Inspected> inspect(String name) {
        List<?> reply = (List<?>) eval(INSPECT, name, List.of());
        String token = (String) reply.get(0);
        if (token == null) {
            return Optional.empty();
        }
        long pttl = (Long) reply.get(1);
        Duration left = pttl < 0 ? ChronoUnit.FOREVER.getDuration() : Duration.ofMillis(pttl);
        return Optional.of(new Inspected(
                new LockHold(name, LockTokens.holderOf(token), fencingToken((String) reply.get(2)), left), token));
    }

    private static long fencingToken(String fence) {
        try {
            return fence == null ? -1 : Long.parseLong(fence);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A handle for a token taken earlier, e.g. by another process: for tests of what an old token can do. */
    LockHandle handleFor(String name, String token, long fencingToken) {
        return new HeldLock(owner, keeper, LockNames.check(name), token, fencingToken, 1, keeper.nanoTime());
    }

    private final class Owner implements LockOwner {
        @Override
        public Ownership release(String name, String token) {
            return run(RELEASE, name, List.of(token, released, name));
        }

        @Override
        public Ownership expireIn(String name, String token, long ttlMillis) {
            return run(EXTEND, name, List.of(token, Long.toString(ttlMillis)));
        }

        private Ownership run(LuaScript script, String name, List<String> args) {
            try {
                return Ownership.ofReply((Long) eval(script, name, args));
            } catch (StoreUnavailableException e) {
                throw new LockUnavailableException(name, e);
            }
        }
    }

    private Object eval(LuaScript script, String name, List<String> args) {
        return redis.eval("run " + script.name() + " for lock '" + name + "'", script, keys(name), args);
    }

    private List<String> keys(String name) {
        return List.of(LockNames.lockKey(prefix, name), LockNames.fenceKey(prefix, name));
    }
}
