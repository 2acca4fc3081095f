package dev.tollgate.internal.guard;

import dev.tollgate.internal.core.Failures;
import dev.tollgate.internal.core.LogThrottle;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * The guard's lines about failures that are not outages, at most one a minute each while they last:
 * refused credentials (an ERROR, and an INFO when they work again), a saturated pool, calls this
 * server was too loaded to finish in time (a WARNING each).
 */
final class FailureNotices {

    private static final Logger LOG = Logger.getLogger(RedisGuard.class.getName());

    private final String target;
    private final LogThrottle throttle;
    private volatile String authFailure;

    FailureNotices(String target, LongSupplier nanoTime) {
        this.target = target;
        this.throttle = new LogThrottle(LogThrottle.MINUTE, nanoTime);
    }

    /** Redis refused Tollgate's credentials or permissions, saying {@code failure}. */
    void authRefused(Throwable failure) {
        String what = Failures.describe(failure);
        authFailure = what;
        if (throttle.allow("auth")) {
            LOG.severe(() -> "Tollgate: Redis at " + target + " refuses Tollgate's credentials or permissions ("
                    + what + "); every limit makes its degraded decision (cause auth), without opening the"
                    + " circuit breaker. Check the user and password in tollgate.redis.url and the user's ACL"
                    + " (logged at most once a minute while it lasts)");
        }
    }

    /** A call succeeded: if credentials were refused until now, they work again. */
    void answered() {
        if (authFailure != null) {
            authFailure = null;
            throttle.reset("auth");
            LOG.info(() -> "Tollgate: Redis at " + target + " accepts Tollgate's credentials again");
        }
    }

    /** A call found every connection busy for its whole budget. */
    void saturated() {
        if (throttle.allow("saturated")) {
            LOG.warning(() -> "Tollgate: Redis calls at " + target + " found every connection busy for their"
                    + " whole budget; their limits decided them by this server's local share (cause saturated;"
                    + " a full pool does not open the circuit breaker). Raise tollgate.redis.pool-size if Redis"
                    + " has room (logged at most once a minute while it lasts)");
        }
    }

    /** A call ran out of its budget while Redis answered other calls: this server was too slow to read it. */
    void load() {
        if (throttle.allow("load")) {
            LOG.warning(() -> "Tollgate: Redis calls at " + target + " ran out of their budget while Redis went on"
                    + " answering others: this server is overloaded (CPU, a GC pause), Redis is not slow; their"
                    + " limits decided them by this server's local share (cause load; it does not open the"
                    + " circuit breaker). Logged at most once a minute while it lasts");
        }
    }

    /** What Redis said when it last refused the credentials, while it refuses them. */
    Optional<String> authFailure() {
        return Optional.ofNullable(authFailure);
    }
}
