package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.core.Guard;
import dev.tollgate.core.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The decision core: a limit and a client key in, a decision out. The store decides, the guard bounds
 * how long that may take, and when the store cannot be asked the limit's degraded decision stands in.
 * Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;

    /** @param stores a store for each algorithm the limits use */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this.stores = new EnumMap<>(stores);
        this.guard = guard;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    /** A limiter of token buckets in {@code store}. */
    public RateLimiter(RateLimitStore store, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this(Map.of(Algorithm.TOKEN_BUCKET, store), guard, listener, nanoTime);
    }

    /** A limiter of token buckets in a store in this JVM: no guard, no listener. */
    public static RateLimiter direct(RateLimitStore store) {
        return new RateLimiter(store, Guard.DIRECT, DecisionListener.NONE, System::nanoTime);
    }

    /** Spends the limit's cost from {@code clientKey}'s bucket if it holds it. */
    public Decision check(LimitSpec limit, String clientKey) {
        long start = nanoTime.getAsLong();
        String storeKey = StoreKeys.of(limit.algorithm(), limit.name(), clientKey);
        RateLimitStore store = store(limit);
        Decision d;
        try {
            d = guard.call(storeKey, () -> store.tryConsume(limit.policy(), storeKey));
        } catch (StoreUnavailableException e) {
            d = Decision.degraded(limit.failOpen());
        }
        listener.onDecision(limit, d, nanoTime.getAsLong() - start);
        return d;
    }

    /**
     * Spends the limit's cost from {@code clientKey}'s bucket, or reserves it when it will have refilled
     * within {@code maxWait}; does not wait itself. A token bucket's only: the tokens a waiting call
     * reserves make every later call queue behind it, so waiters are spaced as the limit allows.
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
        long start = nanoTime.getAsLong();
        String storeKey = StoreKeys.of(limit.algorithm(), limit.name(), clientKey);
        RateLimitStore store = store(limit);
        Reservation r;
        try {
            r = guard.call(storeKey, () -> store.reserve(limit.policy(), storeKey, maxWait));
        } catch (StoreUnavailableException e) {
            r = new Reservation(Decision.degraded(limit.failOpen()), Duration.ZERO);
        }
        listener.onDecision(limit, r.decision(), nanoTime.getAsLong() - start);
        if (r.decision().allowed() && !r.delay().isZero()) {
            listener.onWait(limit, r.delay());
        }
        return r;
    }

    /**
     * Admits one call under all of {@code charges}, all or nothing: each limit is spent (or, with a
     * {@code maxWait}, reserved) in its own atomic script, in order; when any of them denies the call,
     * every token the others took is given back before this returns. A charge costing more than its
     * capacity is denied without asking the store. Reserve-and-give-back: what stays spent is exact, but
     * while a denied call's tokens are out (between its spend and its refund, one round trip) another
     * call can be denied by them.
     *
     * @param maxWait how long the call may wait for token-bucket tokens; zero: not at all
     */
    public Admission admit(List<Charge> charges, Duration maxWait) {
        List<Charged> charged = new ArrayList<>(charges.size());
        try {
            for (Charge c : charges) {
                charged.add(charge(c, maxWait));
            }
        } finally {
            if (charged.size() < charges.size()
                    || charged.stream().anyMatch(c -> !c.decision().allowed())) {
                refund(charged);
            }
        }
        return new Admission(charged, this);
    }

    private Charged charge(Charge c, Duration maxWait) {
        if (c.exceedsCapacity()) {
            Decision never = new Decision(false, 0, Decision.NEVER, Duration.ZERO, false);
            Charged out = new Charged(c, never, 0, Duration.ZERO);
            listener.onCharged(out, 0);
            return out;
        }
        LimitSpec limit = c.limit();
        boolean waits = !maxWait.isZero() && limit.algorithm() == Algorithm.TOKEN_BUCKET;
        long start = nanoTime.getAsLong();
        String storeKey = StoreKeys.of(limit.algorithm(), limit.name(), c.clientKey());
        RateLimitStore store = store(limit);
        Charged out;
        try {
            if (waits) {
                Reservation r = guard.call(storeKey, () -> store.reserve(c.spentPolicy(), storeKey, maxWait));
                out = new Charged(c, r.decision(), 0, r.delay());
            } else {
                Spent s = guard.call(storeKey, () -> store.spend(c.spentPolicy(), storeKey));
                out = new Charged(c, s.decision(), s.mark(), Duration.ZERO);
            }
        } catch (StoreUnavailableException e) {
            out = new Charged(c, Decision.degraded(limit.failOpen()), 0, Duration.ZERO);
        }
        listener.onCharged(out, nanoTime.getAsLong() - start);
        if (!out.delay().isZero()) {
            listener.onWait(limit, out.delay());
        }
        return out;
    }

    /** Gives back every spent charge; one lost to an unreachable store is counted, the rest still go back. */
    void refund(List<Charged> charged) {
        for (Charged c : charged) {
            if (!c.spent()) {
                continue;
            }
            LimitSpec limit = c.charge().limit();
            String storeKey =
                    StoreKeys.of(limit.algorithm(), limit.name(), c.charge().clientKey());
            RateLimitStore store = store(limit);
            boolean given;
            try {
                guard.call(storeKey, () -> {
                    store.refund(c.charge().spentPolicy(), storeKey, c.mark());
                    return null;
                });
                given = true;
            } catch (StoreUnavailableException e) {
                given = false;
            }
            listener.onRefund(limit, given);
        }
    }

    private RateLimitStore store(LimitSpec limit) {
        RateLimitStore store = stores.get(limit.algorithm());
        if (store == null) {
            throw new IllegalStateException("no store for " + limit.algorithm().configName() + " limits");
        }
        return store;
    }
}
