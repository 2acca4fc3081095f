package dev.tollgate.internal.ratelimit;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;

/**
 * A store refused the arguments of one call: a Redis script's {@code TOLLGATE_ARGS} reply ({@link
 * dev.tollgate.internal.redis.RedisFailures#ARGUMENTS_REFUSED}), or the in-process arithmetic's same refusal.
 * Every call is checked against the same rules before a store is asked ({@link Algorithm}, {@link
 * Charge#neverPasses()}), so this can only mean a bug in Tollgate: {@link RateLimiter} denies the call
 * (never admits it, whatever the limit's degraded decision) and logs it as a bug. A data error to the
 * guard: Redis answered, this is no outage.
 */
public final class ArgumentsRefusedException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public ArgumentsRefusedException(String message, Throwable cause) {
        super(message, cause, DegradedCause.DATA_ERROR);
    }

    /** Whether {@code failure}, or a cause of it (a guard may wrap it), is a refusal of the arguments. */
    static boolean in(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ArgumentsRefusedException) {
                return true;
            }
        }
        return false;
    }
}
