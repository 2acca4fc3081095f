package dev.tollgate.internal.ratelimit;

import dev.tollgate.LimitPolicy;
import dev.tollgate.LimitRules;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.core.ServerCount;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * The stage that decides a leased limit's calls ({@code tollgate.limits.<name>.lease}) from tokens this
 * server took in advance: a client key's first call, or one whose lease is spent or over, gives back what
 * is left of its last lease and leases a new slice in one script ({@code token-bucket-lease.lua}); the
 * calls after it spend from the slice in memory until it is spent or its lease time is over. A lease is
 * sized by the key's demand here over the last lease time, capped in Redis at a tenth ({@link
 * LimitRules#LEASE_SHARE}) of the capacity and of what the bucket holds, divided by the live servers; a
 * key with no demand beyond the call itself is decided per call, as without a lease. Tokens taken are
 * tokens the bucket no longer has, so the servers together never admit more than the limit.
 *
 * <p>A lease whose time is over is given back by a sweep every {@link #SWEEP}, and every lease at {@link
 * #close()}. Redis keeps each lease out beside its bucket under this server's {@link #holder} until it
 * is given back; one never given back within {@link #abandonedAfter} of being taken (its server was
 * killed, or cut off from Redis) is struck out by the next lease of that bucket, on any server, which
 * counts its tokens as abandoned ({@link LeaseListener#onAbandoned}). A call that waits for its tokens ({@code maxWait}), and one that carries an idempotency key
 * the limit keeps records of (its record is written in the decision's script), is decided by the store,
 * not a lease; so is every call of a limit that keeps usage ({@code usage-days}), whose ledger is written
 * there too.
 */
final class Leases implements Stage {

    /** The {@link Charged#mark()} of a call spent from a lease: a refund gives it back to the lease. */
    static final long MARK = -1;

    /** How often leases whose time is over are given back, and idle keys forgotten. */
    static final Duration SWEEP = Duration.ofMillis(25);

    /** The least grace a server has, after a lease time, to give a lease back before it counts as abandoned. */
    static final Duration LEAST_GRACE = Duration.ofSeconds(1);

    private final Stage next;
    private final GuardedStore store;
    private final ServerCount servers;
    private final LeaseListener listener;
    private final LongSupplier nanoTime;
    private final Scheduler scheduler;
    private final Map<String, LocalLease> held = new ConcurrentHashMap<>();
    private final String holder = UUID.randomUUID().toString();
    private final AtomicBoolean sweeping = new AtomicBoolean();
    private volatile Scheduler.Task sweep;

    /** @param scheduler runs the sweep, from the first leased call on; null: leases are given back only by calls and {@link #close()} */
    Leases(
            Stage next,
            GuardedStore store,
            ServerCount servers,
            LeaseListener listener,
            LongSupplier nanoTime,
            Scheduler scheduler) {
        this.next = next;
        this.store = store;
        this.servers = servers;
        this.listener = listener;
        this.nanoTime = nanoTime;
        this.scheduler = scheduler;
    }

    @Override
    public Charged apply(Ask ask) {
        LimitSpec limit = ask.limit();
        if (!limit.leased() || ask.waits() || ask.replay() != null || limit.keepsUsage() || !store.leases(limit)) {
            return next.apply(ask);
        }
        while (true) {
            LocalLease lease = held.computeIfAbsent(ask.storeKey(), k -> {
                startSweep();
                return new LocalLease();
            });
            synchronized (lease) {
                if (!lease.retired) {
                    return decide(ask, lease);
                }
            }
        }
    }

    /** Holding {@code lease}'s monitor. */
    private Charged decide(Ask ask, LocalLease lease) {
        Charge c = ask.charge();
        LimitSpec limit = ask.limit();
        long now = nanoTime.getAsLong();
        long leaseNanos = limit.lease().toNanos();
        lease.demand(now, leaseNanos, c.cost());
        if (lease.spend(c.policy(), c.cost(), now)) {
            listener.onDecided(limit, true);
            return new Charged(c, lease.decision(now), MARK, Duration.ZERO, true);
        }
        long want = lease.want(c.cost());
        long returned = lease.end();
        listener.onDecided(limit, false);
        if (want <= c.cost() && returned == 0 && !lease.recorded) {
            return next.apply(ask);
        }
        Granted g;
        try {
            g = store.lease(ask, new LeaseTerms(want, share(), returned, holder, abandonedAfter(limit.lease())));
        } catch (StoreUnavailableException e) {
            if (returned > 0) {
                listener.onLost(limit, returned);
            }
            throw e;
        }
        lease.recorded = g.tokens() > 0;
        told(limit, returned, g);
        if (g.tokens() == 0) {
            return new Charged(c, g.decision(), 0, Duration.ZERO, false);
        }
        lease.start(limit, c.policy(), g, c.cost(), now, leaseNanos);
        listener.onTaken(limit, g.tokens());
        return new Charged(c, lease.decision(now), MARK, Duration.ZERO, true);
    }

    /** Tells the listener of tokens given back and of other servers' leases the store found abandoned. */
    private void told(LimitSpec limit, long returned, Granted g) {
        if (returned > 0) {
            listener.onReturned(limit, returned);
        }
        if (g.abandoned() > 0) {
            listener.onAbandoned(limit, g.abandoned());
        }
    }

    /**
     * How long after it is taken a lease that its server never gives back counts as abandoned: its lease
     * time and as long again, at least {@link #LEAST_GRACE} more (so a pause of its server, a slow sweep,
     * a give-back waiting on Redis are not taken for a death).
     */
    static Duration abandonedAfter(Duration lease) {
        return lease.plus(lease.compareTo(LEAST_GRACE) < 0 ? LEAST_GRACE : lease);
    }

    /** This server's id among the buckets' leases out in Redis: one per engine, so two engines in one JVM are two. */
    String holder() {
        return holder;
    }

    /** A lease takes at most this part of the capacity and of the bucket: a tenth, divided by the live servers. */
    private long share() {
        return (long) LimitRules.LEASE_SHARE * Math.max(1, servers.live());
    }

    /**
     * Gives an allowed call's tokens back to the lease they came from, when it still runs; false when it
     * does not (the caller gives them back to the bucket).
     */
    boolean giveBack(Charged c, String storeKey) {
        LocalLease lease = held.get(storeKey);
        if (c.mark() != MARK || lease == null) {
            return false;
        }
        synchronized (lease) {
            return lease.giveBack(c.charge().policy(), c.charge().cost(), nanoTime.getAsLong());
        }
    }

    /** The tokens this server holds in leases and has not spent. */
    long held() {
        long sum = 0;
        for (LocalLease lease : held.values()) {
            synchronized (lease) {
                sum += lease.tokens;
            }
        }
        return sum;
    }

    private void startSweep() {
        if (scheduler != null && sweeping.compareAndSet(false, true)) {
            sweep = scheduler.every(SWEEP, this::sweep);
        }
    }

    /**
     * Gives back every lease whose time is over, and forgets keys no call asked for in two lease times
     * (so this server keeps one small entry per client key of a leased limit that is in use).
     */
    void sweep() {
        long now = nanoTime.getAsLong();
        held.forEach((key, lease) -> {
            synchronized (lease) {
                if (lease.policy != null && !lease.running(now)) {
                    giveBackAll(key, lease);
                }
                if (lease.policy == null && lease.idle(now)) {
                    lease.retired = true;
                    held.remove(key, lease);
                }
            }
        });
    }

    /**
     * Ends {@code lease} and gives its tokens back to the bucket at {@code key}, striking it out of the
     * leases out there (one script, also when none are left); holding its monitor.
     */
    private void giveBackAll(String key, LocalLease lease) {
        LimitSpec limit = lease.limit;
        LimitPolicy policy = lease.policy;
        long left = lease.end();
        if (!lease.recorded || limit == null) {
            return;
        }
        Granted g =
                store.giveBack(limit, policy, key, LeaseTerms.givingBack(left, holder, abandonedAfter(limit.lease())));
        if (g == null) {
            if (left > 0) {
                listener.onLost(limit, left);
            }
            return;
        }
        lease.recorded = false;
        told(limit, left, g);
    }

    /** Gives back every lease still held, each in one script; what Redis cannot take is counted lost. */
    void close() {
        Scheduler.Task s = sweep;
        if (s != null) {
            s.cancel();
        }
        held.forEach((key, lease) -> {
            synchronized (lease) {
                giveBackAll(key, lease);
                lease.retired = true;
                held.remove(key, lease);
            }
        });
    }
}
