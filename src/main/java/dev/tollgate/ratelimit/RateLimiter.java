package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.Failures;
import dev.tollgate.core.Guard;
import dev.tollgate.core.LogThrottle;
import dev.tollgate.core.StoreUnavailableException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The decision core: a limit and a client key in, a decision out. The store decides, the guard bounds
 * how long that may take, and when the store cannot be asked the limit's degraded decision stands in,
 * told to the listener with its cause. An error Redis gave one call (a key of the wrong type, say) is
 * logged at most once a minute per limit. Knows nothing of HTTP, CDI or MicroProfile.
 */
public final class RateLimiter {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class.getName());

    private final Map<Algorithm, RateLimitStore> stores;
    private final Map<Algorithm, RateLimitStore> localStores;
    private final Guard guard;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;
    private final ShadowLog shadowLog;
    private final DeniedCache denials;
    private final LogThrottle dataErrors;
    private final StoreKeys keys;
    private final LogThrottle bugs;

    /**
     * The longest a call may wait for its tokens: 2^53 µs (285 years), the longest the scripts count
     * exactly. A longer {@code maxWait} is the same as this one: no bucket takes that long to refill.
     */
    static final Duration LONGEST_WAIT = Duration.of(LimitPolicy.MAX_COUNT, ChronoUnit.MICROS);

    /**
     * The answer to a call whose arguments a store refused ({@link ArgumentsRefusedException}, a bug):
     * denied, whatever the limit's degraded decision, with the retry-after of a degraded decision. Not
     * a fail-closed answer (a 503): the call is refused for itself, a {@code 429}.
     */
    private static final Decision REFUSED = new Decision(
            false,
            0,
            Decision.degraded(false).retryAfter(),
            Decision.degraded(false).retryAfter(),
            true);

    /** @param stores a store for each algorithm the limits use */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores, Guard guard, DecisionListener listener, LongSupplier nanoTime) {
        this(stores, Map.of(), null, guard, listener, nanoTime);
    }

    /**
     * @param stores a store for each algorithm the limits use
     * @param localStores in-process stores that decide for limits with a local fallback while {@code
     *     stores} cannot be asked; empty when the stores are in process already
     * @param denials where denied keys are held until their retry-after, so that their calls are answered
     *     without asking the store; null: every call asks
     */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores,
            Map<Algorithm, RateLimitStore> localStores,
            DeniedCache denials,
            Guard guard,
            DecisionListener listener,
            LongSupplier nanoTime) {
        this(stores, localStores, denials, guard, listener, nanoTime, StoreKeys.DEFAULT);
    }

    /**
     * As above, with the buckets' keys named by {@code keys} (under a {@code tollgate.redis.key-prefix}).
     */
    public RateLimiter(
            Map<Algorithm, RateLimitStore> stores,
            Map<Algorithm, RateLimitStore> localStores,
            DeniedCache denials,
            Guard guard,
            DecisionListener listener,
            LongSupplier nanoTime,
            StoreKeys keys) {
        this.keys = keys;
        this.stores = new EnumMap<>(stores);
        this.localStores = localStores.isEmpty() ? Map.of() : new EnumMap<>(localStores);
        this.guard = guard;
        this.listener = listener;
        this.nanoTime = nanoTime;
        this.shadowLog = new ShadowLog(nanoTime);
        this.denials = denials;
        this.dataErrors = new LogThrottle(LogThrottle.MINUTE, nanoTime);
        this.bugs = new LogThrottle(LogThrottle.MINUTE, nanoTime);
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
        Decision d = decide(limit, clientKey);
        if (limit.candidate() != null) {
            decide(limit.candidate(), clientKey);
        }
        return d;
    }

    private Decision decide(LimitSpec limit, String clientKey) {
        long start = nanoTime.getAsLong();
        String storeKey = keys.of(limit, clientKey);
        RateLimitStore store = store(limit);
        Decision d = denials == null ? null : denials.denial(storeKey).orElse(null);
        DegradedCause cause = null;
        if (d != null) {
            listener.onHeldDenial(limit);
        } else {
            try {
                d = guard.call(storeKey, () -> store.tryConsume(limit.policy(), storeKey));
                if (denials != null && !d.allowed()) {
                    denials.hold(storeKey, start, d);
                }
            } catch (StoreUnavailableException e) {
                cause = unanswered(limit, storeKey, e);
                d = withoutStore(limit, storeKey, cause, e);
            }
        }
        tell(limit, d, cause, start);
        return limit.shadow() ? passed(limit, d) : d;
    }

    /**
     * The decision when the store cannot be asked for {@code cause}: this server's in-process bucket of
     * the limit's local share when it has a local fallback (degraded all the same: it is not the shared
     * count), else the limit's degraded decision. A fail-open limit whose call this server's own load kept
     * from Redis ({@link DegradedCause#isLoad()}: a full pool, a thread that woke too late) decides by its
     * load share even without a local fallback: a flood admits at most the limit and that share. A call
     * whose arguments the store refused is denied ({@link #REFUSED}).
     */
    private Decision withoutStore(LimitSpec limit, String storeKey, DegradedCause cause, StoreUnavailableException e) {
        if (ArgumentsRefusedException.in(e)) {
            return REFUSED;
        }
        RateLimitStore local = localStores.get(limit.algorithm());
        LimitPolicy share = limit.localFallback();
        if (share == null && cause.isLoad() && limit.failOpen()) {
            share = limit.loadShare();
        }
        if (share == null || local == null) {
            return Decision.degraded(limit.failOpen());
        }
        Decision d = local.tryConsume(share, storeKey);
        Decision degraded = new Decision(d.allowed(), d.remaining(), d.retryAfter(), d.resetAfter(), true);
        listener.onLocalDecision(limit, degraded);
        return degraded;
    }

    /**
     * Why the store did not answer {@code storeKey}; a data error is logged at most once a minute per
     * limit. A refusal of the call's arguments is a bug: SEVERE, at most once a minute per limit, naming
     * the limit and what was sent (never the client key); a data error to the metrics.
     */
    private DegradedCause unanswered(LimitSpec limit, String storeKey, StoreUnavailableException e) {
        DegradedCause cause = e.degradedCause();
        if (ArgumentsRefusedException.in(e)) {
            if (bugs.allow(limit.name())) {
                LOG.severe(() -> "Tollgate: limit '" + limit.name() + "': the store refused the arguments of a call ("
                        + Failures.describe(e) + "). This is a bug in Tollgate: every call is checked against the"
                        + " same rules before the store is asked. The call was denied, whatever the limit's"
                        + " degraded decision; please report it (logged at most once a minute per limit)");
            }
            return DegradedCause.DATA_ERROR;
        }
        if (cause == DegradedCause.DATA_ERROR && dataErrors.allow(limit.name())) {
            LOG.warning(() -> "Tollgate: limit '" + limit.name() + "': Redis answered a call on " + storeKey
                    + " with an error (" + Failures.describe(e) + "); that call got the limit's degraded decision,"
                    + " other calls are asked as usual and the circuit breaker is not affected (logged at most once"
                    + " a minute per limit)");
        }
        return cause;
    }

    /** Tells the listener of {@code d}: degraded for {@code cause}, or (null) decided by the store. */
    private void tell(LimitSpec limit, Decision d, DegradedCause cause, long start) {
        long nanos = nanoTime.getAsLong() - start;
        if (cause == null) {
            listener.onDecision(limit, d, nanos);
        } else {
            listener.onDegraded(limit, d, cause, nanos);
        }
    }

    /** What a shadow limit answers: the call passes; a denial is counted and logged, never given. */
    private Decision passed(LimitSpec limit, Decision d) {
        if (d.allowed()) {
            return d;
        }
        shadowLog.wouldDeny(limit);
        return new Decision(true, d.remaining(), Duration.ZERO, d.resetAfter(), d.degraded());
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
        if (limit.shadow()) {
            // A shadow limit never makes a call wait.
            return new Reservation(check(limit, clientKey), Duration.ZERO);
        }
        if (limit.candidate() != null) {
            decide(limit.candidate(), clientKey);
        }
        long start = nanoTime.getAsLong();
        String storeKey = keys.of(limit, clientKey);
        RateLimitStore store = store(limit);
        Duration wait = bounded(maxWait);
        Reservation r;
        DegradedCause cause = null;
        try {
            r = guard.call(storeKey, () -> store.reserve(limit.policy(), storeKey, wait));
        } catch (StoreUnavailableException e) {
            cause = unanswered(limit, storeKey, e);
            r = new Reservation(withoutStore(limit, storeKey, cause, e), Duration.ZERO);
        }
        tell(limit, r.decision(), cause, start);
        if (r.decision().allowed() && !r.delay().isZero()) {
            listener.onWait(limit, r.delay());
        }
        return r;
    }

    /**
     * Admits one call under all of {@code charges}, all or nothing: each limit is spent (or, with a
     * {@code maxWait}, reserved) in its own atomic script, in order; when any of them denies the call,
     * every token the others took is given back before this returns. A charge costing more than one call
     * may ({@link Charge#neverPasses()}) is denied without asking the store. Reserve-and-give-back: what stays spent is exact, but
     * while a denied call's tokens are out (between its spend and its refund, one round trip) another
     * call can be denied by them. Shadow limits, candidates, held denials and local fallbacks behave as
     * in {@link #check}; a held denial answers only a charge under the limit's own policy and cost.
     *
     * @param maxWait how long the call may wait for token-bucket tokens; zero: not at all
     * @throws dev.tollgate.ClientKeyTooLongException when a charge's client key is too long for a bucket,
     *     before anything is spent
     */
    public Admission admit(List<Charge> charges, Duration maxWait) {
        // A key too long for any bucket refuses the call before any limit is spent.
        charges.forEach(c -> StoreKeys.checkLength(c.name(), c.clientKey()));
        List<Charged> charged = new ArrayList<>(charges.size());
        Duration wait = bounded(maxWait);
        try {
            for (Charge c : charges) {
                charged.add(charge(c, wait));
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
        LimitSpec limit = c.limit();
        if (c.neverPasses()) {
            Decision never = new Decision(false, 0, Decision.NEVER, Duration.ZERO, false);
            Charged out = new Charged(c, never, 0, Duration.ZERO, false);
            listener.onCharged(out, 0);
            return limit.shadow() ? shadowed(out) : out;
        }
        if (limit.candidate() != null) {
            decide(limit.candidate(), c.clientKey());
        }
        long start = nanoTime.getAsLong();
        String storeKey = keys.of(limit, c.clientKey());
        boolean own = c.plan() == null && c.cost() == limit.policy().cost();
        Decision held =
                denials == null || !own ? null : denials.denial(storeKey).orElse(null);
        Charged out;
        if (held != null) {
            listener.onHeldDenial(limit);
            out = new Charged(c, held, 0, Duration.ZERO, false);
        } else {
            out = spend(c, storeKey, maxWait, start, own);
        }
        listener.onCharged(out, nanoTime.getAsLong() - start);
        if (!out.delay().isZero()) {
            listener.onWait(limit, out.delay());
        }
        return limit.shadow() ? shadowed(out) : out;
    }

    private Charged spend(Charge c, String storeKey, Duration maxWait, long start, boolean own) {
        LimitSpec limit = c.limit();
        RateLimitStore store = store(limit);
        boolean waits = !maxWait.isZero() && limit.algorithm() == Algorithm.TOKEN_BUCKET && !limit.shadow();
        try {
            if (waits) {
                Reservation r = guard.call(storeKey, () -> store.reserve(c.spentPolicy(), storeKey, maxWait));
                return new Charged(c, r.decision(), 0, r.delay(), r.decision().allowed());
            }
            Spent s = guard.call(storeKey, () -> store.spend(c.spentPolicy(), storeKey));
            if (denials != null && own && !s.decision().allowed()) {
                denials.hold(storeKey, start, s.decision());
            }
            return new Charged(
                    c, s.decision(), s.mark(), Duration.ZERO, s.decision().allowed());
        } catch (StoreUnavailableException e) {
            DegradedCause cause = unanswered(limit, storeKey, e);
            return new Charged(c, withoutStore(limit, storeKey, cause, e), 0, Duration.ZERO, false, cause);
        }
    }

    /** A shadow limit's part: the call passes whatever it decided; what it took stays taken. */
    private Charged shadowed(Charged c) {
        return new Charged(
                c.charge(), passed(c.charge().limit(), c.decision()), c.mark(), Duration.ZERO, c.spent(), c.cause());
    }

    /**
     * Gives back every spent charge, each in one atomic script; one lost to an unreachable store is
     * counted, the rest still go back. A denial held for the key is forgotten: tokens came back.
     */
    void refund(List<Charged> charged) {
        for (Charged c : charged) {
            if (!c.spent()) {
                continue;
            }
            LimitSpec limit = c.charge().limit();
            String storeKey = keys.of(limit, c.charge().clientKey());
            RateLimitStore store = store(limit);
            boolean given;
            try {
                guard.call(storeKey, () -> {
                    store.refund(c.charge().spentPolicy(), storeKey, c.mark());
                    return null;
                });
                given = true;
                forgetDenials(storeKey);
            } catch (StoreUnavailableException e) {
                given = false;
            }
            listener.onRefund(limit, given);
        }
    }

    /** How this limiter names its buckets' keys. */
    public StoreKeys keys() {
        return keys;
    }

    /** Forgets the denials held for {@code storeKey}, or for every key when it is null; nothing without a cache. */
    public void forgetDenials(String storeKey) {
        if (denials != null && storeKey != null) {
            denials.forget(storeKey);
        } else if (denials != null) {
            denials.clear();
        }
    }

    /** {@code maxWait}, at most {@link #LONGEST_WAIT}: what the stores' scripts take. */
    private static Duration bounded(Duration maxWait) {
        return maxWait.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : maxWait;
    }

    private RateLimitStore store(LimitSpec limit) {
        RateLimitStore store = stores.get(limit.algorithm());
        if (store == null) {
            throw new IllegalStateException("no store for " + limit.algorithm().configName() + " limits");
        }
        return store;
    }
}
