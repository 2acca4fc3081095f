package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.core.ServerCount;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The decision core: a limit and a client key in, a decision out. Every decision, a lone {@link #check},
 * a {@link #reserve} or one limit's part of an {@link #admit}, goes through one chain of stages, from
 * the outside in: {@link Shadow} (a shadow limit passes the call), {@link TooCostly} (a cost no call may
 * have is denied), {@link Candidate} (the candidate beside the limit spends too), {@link Told} (the
 * listener hears of it), {@link HeldDenials} (a denied key is answered here until its retry-after),
 * {@link Fallback} (when the store cannot be asked: the local fallback or the degraded decision), {@link
 * Leases} (a leased limit spends its lease) and {@link GuardedStore} (the store, within the guard's
 * budget). Held denials are in the chain only with a {@link DeniedCache}, leases only with a store that
 * leases. Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    /**
     * The longest a call may wait for its tokens: 2^53 µs (285 years), the longest the scripts count
     * exactly. A longer {@code maxWait} is the same as this one: no bucket takes that long to refill.
     */
    static final Duration LONGEST_WAIT = Duration.of(LimitPolicy.MAX_COUNT, ChronoUnit.MICROS);

    private final GuardedStore store;
    private final HeldDenials held;
    private final DecisionListener listener;
    private final StoreKeys keys;
    private final LoneAsks asks;
    private final Leases leases;
    private final Stage chain;

    /** @param stores a store for each algorithm the limits use */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this(stores, Map.of(), null, guard, listener, nanoTime, StoreKeys.DEFAULT);
    }

    /**
     * @param stores a store for each algorithm the limits use
     * @param localStores in-process stores that decide for limits with a local fallback while {@code
     *     stores} cannot be asked; empty when the stores are in process already
     * @param denials where denied keys are held until their retry-after, so that their calls are answered
     *     without asking the store; null: every call asks
     * @param keys how the buckets' keys are named (under a {@code tollgate.redis.key-prefix})
     */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores,
            Map<Algorithm, RateLimitStore> localStores,
            DeniedCache denials,
            Guard guard,
            DecisionListener listener,
            LongSupplier nanoTime,
            StoreKeys keys) {
        this(stores, localStores, denials, guard, listener, nanoTime, keys, ServerCount.ONE, LeaseListener.NONE, null);
    }

    /**
     * As above, leasing the limits that say so ({@link Leases}).
     *
     * @param servers how many servers share the limits: a lease takes at most its share
     * @param leaseListener told of leases taken, given back and lost
     * @param scheduler gives back leases whose time is over; null: only calls and {@link #returnLeases()} do
     */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores,
            Map<Algorithm, RateLimitStore> localStores,
            DeniedCache denials,
            Guard guard,
            DecisionListener listener,
            LongSupplier nanoTime,
            StoreKeys keys,
            ServerCount servers,
            LeaseListener leaseListener,
            Scheduler scheduler) {
        this.keys = keys;
        this.asks = new LoneAsks(keys);
        this.listener = listener;
        this.store = new GuardedStore(stores, guard);
        this.leases = new Leases(store, store, servers, leaseListener, nanoTime, scheduler);
        // A stage that cannot act is left out of the chain: no leases without a store that leases, no held
        // denials without a cache to hold them in (each stage more is a call more on every decision).
        boolean leasing = stores.values().stream().anyMatch(RateLimitStore::leases);
        Stage asked = new Fallback(leasing ? leases : store, localStores, listener, nanoTime);
        this.held = new HeldDenials(asked, denials, listener, nanoTime);
        Told told = new Told(denials == null ? asked : held, listener, nanoTime, guard == Guard.DIRECT);
        this.chain = new Shadow(new TooCostly(new Candidate(told, this::decide, asks), told), new ShadowLog(nanoTime));
    }

    /** A limiter of token buckets in {@code store}. */
    public RateLimiter(RateLimitStore store, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this(Map.of(Algorithm.TOKEN_BUCKET, store), guard, listener, nanoTime);
    }

    /** A limiter of token buckets in a store in this JVM: no guard, no listener. */
    public static RateLimiter direct(RateLimitStore store) {
        return new RateLimiter(store, Guard.DIRECT, DecisionListener.NONE, System::nanoTime);
    }

    /**
     * Spends the limit's cost from {@code clientKey}'s bucket if it holds it. A shadow limit lets the
     * call pass whatever it decided (the listener is told what it decided); a candidate beside the limit
     * spends from its own bucket too, and decides nothing.
     */
    public Decision check(LimitSpec limit, String clientKey) {
        return chain.apply(asks.of(limit, clientKey)).decision();
    }

    /**
     * {@link #check(LimitSpec, String)} of the limit named {@code name} in the configuration {@code scope}
     * ({@code limits} finds it there): a hot client's check of a named limit does not look the name up
     * each time. Hand the configuration read once for this call as the scope.
     */
    public Decision check(Object scope, String name, String clientKey, Function<String, LimitSpec> limits) {
        return chain.apply(asks.of(scope, name, clientKey, limits)).decision();
    }

    /**
     * Spends the limit's cost from {@code clientKey}'s bucket, or reserves it when it will have refilled
     * within {@code maxWait}; does not wait itself. A token bucket's only: the tokens a waiting call
     * reserves make every later call queue behind it, so waiters are spaced as the limit allows. A shadow
     * limit never makes a call wait.
     *
     * @return allowed with how long to wait first (zero: at once), or denied at once when the wait would
     *     exceed {@code maxWait}; when the store cannot be asked, the limit's degraded decision, no wait
     * @throws IllegalArgumentException when the limit is not a token bucket or {@code maxWait} is negative
     */
    public Reservation reserve(LimitSpec limit, String clientKey, Duration maxWait) {
        if (limit.algorithm() != Algorithm.TOKEN_BUCKET) {
            throw new IllegalArgumentException("limit '" + limit.name() + "' is a "
                    + limit.algorithm().configName() + ": only a token bucket can be waited for");
        }
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException(
                    "limit '" + limit.name() + "': maxWait must be >= 0, but was " + maxWait);
        }
        Charged c = alone(limit, clientKey, bounded(maxWait));
        return new Reservation(c.decision(), c.delay());
    }

    /**
     * Like {@link #check(LimitSpec, String)}, for a call that carries an idempotency key: when the limit
     * keeps idempotency records, a repeat of a call it admitted is admitted again, spending nothing.
     *
     * @param repeat the call's idempotency key; null: none
     */
    public Decision check(LimitSpec limit, String clientKey, Repeat repeat) {
        Ask lone = asks.of(limit, clientKey);
        return chain.apply(
                        repeat == null ? lone : new Ask(lone.charge(), lone.storeKey(), Duration.ZERO, false, repeat))
                .decision();
    }

    private Charged decide(Ask ask) {
        return chain.apply(ask);
    }

    private Charged alone(LimitSpec limit, String clientKey, Duration maxWait) {
        Ask lone = asks.of(limit, clientKey);
        return chain.apply(maxWait.isZero() ? lone : new Ask(lone.charge(), lone.storeKey(), maxWait, false));
    }

    /**
     * Admits one call under all of {@code charges}, all or nothing: each limit is spent (or, with a
     * {@code maxWait}, reserved) in its own atomic script, in order; when any of them denies the call,
     * every token the others took is given back before this returns. A charge costing more than one call
     * may ({@link Charge#neverPasses()}) is denied without asking the store. Reserve-and-give-back: what
     * stays spent is exact, but while a denied call's tokens are out (between its spend and its refund,
     * one round trip) another call can be denied by them. Shadow limits, candidates, held denials and
     * local fallbacks behave as in {@link #check}; a held denial answers only a charge under the limit's
     * own policy and cost that does not wait.
     *
     * @param maxWait how long the call may wait for token-bucket tokens; zero: not at all
     * @throws dev.tollgate.ClientKeyTooLongException when a charge's client key is too long for a bucket,
     *     before anything is spent
     */
    public Admission admit(List<Charge> charges, Duration maxWait) {
        return admit(charges, maxWait, null);
    }

    /**
     * Like {@link #admit(List, Duration)}, for a call that carries an idempotency key: each limit that
     * keeps idempotency records ({@link LimitSpec#idempotencyWindow()}) answers a repeat of a call it
     * admitted with that call's decision again, spending nothing, in the decision's own script; a
     * denial keeps no record, and a refund forgets it. So a repeat gets the first attempt's
     * all-or-nothing answer: admitted when every limit admitted it (nothing spent again), and else
     * decided afresh, as the first attempt was given nothing.
     *
     * @param repeat the call's idempotency key; null: none
     */
    public Admission admit(List<Charge> charges, Duration maxWait, Repeat repeat) {
        // A key too long for any bucket refuses the call before any limit is spent.
        for (Charge c : charges) {
            StoreKeys.checkLength(c.name(), c.clientKey());
        }
        List<Charged> charged = new ArrayList<>(charges.size());
        Duration wait = bounded(maxWait);
        boolean denied = false;
        try {
            for (Charge c : charges) {
                Charged one = chain.apply(new Ask(c, asks.storeKey(c.limit(), c.clientKey()), wait, true, repeat));
                charged.add(one);
                denied |= !one.decision().allowed();
            }
        } finally {
            if (denied || charged.size() < charges.size()) {
                refund(charged);
            }
        }
        return new Admission(Collections.unmodifiableList(charged), this);
    }

    /**
     * Gives back every spent charge, each in one atomic script; one lost to an unreachable store is
     * counted, the rest still go back. A denial held for the key is forgotten: tokens came back.
     */
    void refund(List<Charged> charged) {
        for (Charged c : charged) {
            if (c.spent()) {
                String storeKey = asks.storeKey(c.charge().limit(), c.charge().clientKey());
                boolean given = leases.giveBack(c, storeKey) || store.refund(c, storeKey);
                if (given) {
                    held.forget(storeKey);
                }
                listener.onRefund(c.charge().limit(), given);
            }
        }
    }

    /**
     * Gives back every token this server leased and did not spend, each lease in one script: at shutdown.
     * A leased limit's next call takes a new lease.
     */
    public void returnLeases() {
        leases.close();
    }

    /** The tokens this server holds in leases and has not spent (given back at the lease's end). */
    public long leasedTokens() {
        return leases.held();
    }

    /** Gives back the leases whose time is over now: what the sweep does, for tests that drive it. */
    public void sweepLeases() {
        leases.sweep();
    }

    /**
     * Settles an admitted charge at its {@code actual} cost: the difference to what it spent is given
     * back or charged on top ({@link RateLimitStore#settle}); a denial held for the key is forgotten when
     * tokens came back. Nothing is asked when the two are equal.
     *
     * @return whether the store took it
     * @throws IllegalArgumentException when {@code actual} breaks {@link dev.tollgate.LimitRules#SETTLED_COST_RULE}
     * @throws IllegalStateException when the charge spent nothing (a denial, a degraded decision, a repeat)
     */
    public boolean settle(Charged c, long actual) {
        dev.tollgate.LimitRules.settledCostProblem(actual).ifPresent(p -> {
            throw new IllegalArgumentException("limit '" + c.charge().name() + "': " + p);
        });
        if (!c.spent()) {
            throw new IllegalStateException(
                    "limit '" + c.charge().name() + "': a call that spent nothing has" + " nothing to settle");
        }
        long delta = actual - c.charge().cost();
        if (delta == 0) {
            return true;
        }
        String storeKey = asks.storeKey(c.charge().limit(), c.charge().clientKey());
        boolean taken = store.settle(c, storeKey, delta);
        if (taken && delta < 0) {
            held.forget(storeKey);
        }
        return taken;
    }

    /** How this limiter names its buckets' keys. */
    public StoreKeys keys() {
        return keys;
    }

    /** Forgets the denials held for {@code storeKey}, or for every key when it is null; nothing without a cache. */
    public void forgetDenials(String storeKey) {
        held.forget(storeKey);
    }

    /** {@code maxWait}, at most {@link #LONGEST_WAIT}: what the stores' scripts take. */
    private static Duration bounded(Duration maxWait) {
        return maxWait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : maxWait;
    }
}
