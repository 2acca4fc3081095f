package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.LogThrottle;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The stage that answers when the store cannot be asked: this server's in-process bucket of the
 * limit's local share when it has a local fallback, else the limit's degraded decision, with its cause.
 * An error Redis gave one call (a key of the wrong type, say) is logged at most once a minute per limit.
 */
final class Fallback implements Stage {

    private static final Logger LOG = Logger.getLogger(RateLimiter.class.getName());

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

    private final Stage next;
    private final Map<Algorithm, RateLimitStore> localStores;
    private final DecisionListener listener;
    private final LogThrottle dataErrors;
    private final LogThrottle bugs;

    /** @param localStores in-process stores for limits with a local fallback; empty when there are none */
    Fallback(Stage next, Map<Algorithm, RateLimitStore> localStores, DecisionListener listener, LongSupplier nanoTime) {
        this.next = next;
        this.localStores = localStores.isEmpty() ? Map.of() : new EnumMap<>(localStores);
        this.listener = listener;
        this.dataErrors = new LogThrottle(LogThrottle.MINUTE, nanoTime);
        this.bugs = new LogThrottle(LogThrottle.MINUTE, nanoTime);
    }

    @Override
    public Charged apply(Ask ask) {
        try {
            return next.apply(ask);
        } catch (StoreUnavailableException e) {
            DegradedCause cause = unanswered(ask, e);
            Decision d = withoutStore(ask, cause, e);
            return new Charged(ask.charge(), d, 0, Duration.ZERO, false, cause);
        }
    }

    /**
     * The decision when the store cannot be asked for {@code cause}. A fail-open limit whose call this
     * server's own load kept from Redis ({@link DegradedCause#isLoad()}: a full pool, a thread that woke
     * too late) decides by its load share even without a local fallback: a flood admits at most the
     * limit and that share. A call whose arguments the store refused is denied ({@link #REFUSED}).
     */
    private Decision withoutStore(Ask ask, DegradedCause cause, StoreUnavailableException e) {
        if (ArgumentsRefusedException.in(e)) {
            return REFUSED;
        }
        LimitSpec limit = ask.limit();
        RateLimitStore local = localStores.get(limit.algorithm());
        LimitPolicy share = limit.localFallback();
        if (share == null && cause.isLoad() && limit.failOpen()) {
            share = limit.loadShare();
        }
        if (share == null || local == null) {
            return Decision.degraded(limit.failOpen());
        }
        Decision d = local.tryConsume(share, ask.storeKey());
        Decision degraded = new Decision(d.allowed(), d.remaining(), d.retryAfter(), d.resetAfter(), true);
        listener.onLocalDecision(limit, degraded);
        return degraded;
    }

    /**
     * Why the store did not answer; a data error is logged at most once a minute per limit. A refusal of
     * the call's arguments is a bug: SEVERE, at most once a minute per limit, naming the limit and what
     * was sent (never the client key); a data error to the metrics.
     */
    private DegradedCause unanswered(Ask ask, StoreUnavailableException e) {
        String name = ask.limit().name();
        if (ArgumentsRefusedException.in(e)) {
            if (bugs.allow(name)) {
                LOG.severe(() -> "Tollgate: limit '" + name + "': the store refused the arguments of a call ("
                        + Failures.describe(e) + "). This is a bug in Tollgate: every call is checked against the"
                        + " same rules before the store is asked. The call was denied, whatever the limit's"
                        + " degraded decision; please report it (logged at most once a minute per limit)");
            }
            return DegradedCause.DATA_ERROR;
        }
        DegradedCause cause = e.degradedCause();
        if (cause == DegradedCause.DATA_ERROR && dataErrors.allow(name)) {
            LOG.warning(() -> "Tollgate: limit '" + name + "': Redis answered a call on " + ask.storeKey()
                    + " with an error (" + Failures.describe(e) + "); that call got the limit's degraded decision,"
                    + " other calls are asked as usual and the circuit breaker is not affected (logged at most once"
                    + " a minute per limit)");
        }
        return cause;
    }
}
