package dev.tollgate.guard;

import dev.tollgate.DegradedCause;
import dev.tollgate.core.StoreSaturatedException;
import dev.tollgate.core.StoreUnavailableException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;

/**
 * The guard's one place that says what a failed call means: {@link #screened} keeps everything but
 * outages from a breaker (a failure that is not one leaves as {@link NotAnOutageException}, which every
 * {@link Breaker} takes as an answer), and {@link #causeOf} names the cause of any failure a caller saw.
 *
 * @param breaker whose refusals and timeouts are recognised
 * @param classifier what the store's own failures mean ({@code dev.tollgate.redis.RedisFailures})
 */
public record Outages(Breaker breaker, FailureClassifier classifier) {

    /** {@code call}, whose failures that are not outages leave as {@link NotAnOutageException}. */
    public <T> Callable<T> screened(Callable<T> call) {
        return screened(call, false);
    }

    /**
     * The same; with {@code waitedForConnection} (the pool was full and the call waited for a connection),
     * a timeout is {@link DegradedCause#SATURATED}: the budget went to waiting, not to Redis.
     */
    public <T> Callable<T> screened(Callable<T> call, boolean waitedForConnection) {
        return () -> {
            try {
                return call.call();
            } catch (Exception e) {
                DegradedCause cause = classifier.classify(e);
                if (waitedForConnection && cause == DegradedCause.TIMEOUT) {
                    cause = DegradedCause.SATURATED;
                }
                if (!cause.countsTowardBreaker()) {
                    throw new NotAnOutageException(cause, e);
                }
                throw e;
            }
        };
    }

    /** Why a call failed with {@code failure}, as its caller saw it. */
    public DegradedCause causeOf(Throwable failure) {
        if (breaker.isOpenFailure(failure)) {
            return DegradedCause.BREAKER_OPEN;
        }
        if (failure instanceof NotAnOutageException n) {
            return n.degradedCause();
        }
        if (failure instanceof StoreSaturatedException) {
            return DegradedCause.SATURATED;
        }
        if (failure instanceof StoreUnavailableException s && !s.attempted()) {
            return s.degradedCause();
        }
        if (failure instanceof TimeoutException || breaker.isTimeout(failure)) {
            return DegradedCause.TIMEOUT;
        }
        return classifier.classify(failure);
    }
}
