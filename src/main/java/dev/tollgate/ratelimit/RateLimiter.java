package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.core.Failures;
import dev.tollgate.core.Guard;
import dev.tollgate.core.LogThrottle;
import dev.tollgate.core.StoreUnavailableException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The decision core: a limit and a client key in, a decision out. The store decides, the guard bounds
 * how long that may take, and when the store cannot be asked the limit's degraded decision stands in,
 * counted with its cause. An error Redis gave one call (a key of the wrong type, say) is logged at most
 * once a minute per limit. Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class.getName());

    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;
    private final LogThrottle dataErrors;

    /** @param stores a store for each algorithm the limits use */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this.stores = new EnumMap<>(stores);
        this.guard = guard;
        this.listener = listener;
        this.nanoTime = nanoTime;
        this.dataErrors = new LogThrottle(LogThrottle.MINUTE, nanoTime);
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
        try {
            Decision d = guard.call(storeKey, () -> store.tryConsume(limit.policy(), storeKey));
            listener.onDecision(limit, d, nanoTime.getAsLong() - start);
            return d;
        } catch (StoreUnavailableException e) {
            return degraded(limit, storeKey, e, start);
        }
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
            return new Reservation(degraded(limit, storeKey, e, start), Duration.ZERO);
        }
        listener.onDecision(limit, r.decision(), nanoTime.getAsLong() - start);
        if (r.decision().allowed() && !r.delay().isZero()) {
            listener.onWait(limit, r.delay());
        }
        return r;
    }

    /** The limit's degraded decision for a call the store did not answer, told with its cause. */
    private Decision degraded(LimitSpec limit, String storeKey, StoreUnavailableException e, long start) {
        Decision d = Decision.degraded(limit.failOpen());
        DegradedCause cause = e.degradedCause();
        if (cause == DegradedCause.DATA_ERROR && dataErrors.allow(limit.name())) {
            LOG.warning(() -> "Tollgate: limit '" + limit.name() + "': Redis answered a call on " + storeKey
                    + " with an error (" + Failures.describe(e) + "); that call got the limit's degraded decision"
                    + " (" + (d.allowed() ? "allowed" : "denied") + "), other calls are asked as usual and the"
                    + " circuit breaker is not affected (logged at most once a minute per limit)");
        }
        listener.onDegraded(limit, d, cause, nanoTime.getAsLong() - start);
        return d;
    }

    private RateLimitStore store(LimitSpec limit) {
        RateLimitStore store = stores.get(limit.algorithm());
        if (store == null) {
            throw new IllegalStateException("no store for " + limit.algorithm().configName() + " limits");
        }
        return store;
    }
}
