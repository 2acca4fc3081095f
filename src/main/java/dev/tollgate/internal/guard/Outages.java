package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.StoreSaturatedException;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

/**
 * The guard's one place that says what a failed call means: {@link #screened} keeps everything but
 * outages from a breaker (a failure that is not one leaves as {@link NotAnOutageException}, which every
 * {@link Breaker} takes as an answer), and {@link #causeOf} names the cause of any failure a caller saw.
 *
 * <p>A timeout is an outage only when Redis stayed silent: it knows when Redis last answered one of
 * this guard's calls (one volatile write per answer), and a call that ran out of its budget after Redis
 * answered another call sent no earlier than itself is {@link DegradedCause#LOAD}, this server's own
 * slowness (its CPU, a GC pause, a wait behind a pipelined write), not a Redis that is slow or gone.
 * A Redis that hangs answers nothing after the hang, so every call sent after it still times out as
 * {@link DegradedCause#TIMEOUT} and counts toward the breaker as before.
 */
public final class Outages {

    private final Breaker breaker;
    private final FailureClassifier classifier;
    private final LongSupplier nanoTime;

    /** When Redis last answered a call of this guard (an error reply too); the first call's start before that. */
    private volatile long lastAnswer;

    private static final long ANSWER_GRAIN_NANOS = 100_000;

    /**
     * @param breaker whose refusals and timeouts are recognised
     * @param classifier what the store's own failures mean ({@code dev.tollgate.internal.redis.RedisFailures})
     * @param nanoTime the monotonic clock the calls are timed by
     */
    public Outages(Breaker breaker, FailureClassifier classifier, LongSupplier nanoTime) {
        this.breaker = breaker;
        this.classifier = classifier;
        this.nanoTime = nanoTime;
        this.lastAnswer = nanoTime.getAsLong() - 1;
    }

    /** {@code call}, whose failures that are not outages leave as {@link NotAnOutageException}. */
    public <T> Callable<T> screened(Callable<T> call) {
        return screened(call, false);
    }

    /**
     * The same; with {@code waitedForConnection} (the pool was full and the call waited for a connection),
     * a timeout is {@link DegradedCause#SATURATED}: the budget went to waiting, not to Redis. Otherwise a
     * timeout after Redis answered another call sent no earlier is {@link DegradedCause#LOAD}.
     */
    public <T> Callable<T> screened(Callable<T> call, boolean waitedForConnection) {
        return () -> {
            long sent = nanoTime.getAsLong();
            T value;
            try {
                value = call.call();
            } catch (Exception e) {
                DegradedCause cause = classifier.classify(e);
                if (cause == DegradedCause.TIMEOUT) {
                    cause = waitedForConnection ? DegradedCause.SATURATED : timeoutSince(sent);
                } else if (!cause.countsTowardBreaker()) {
                    answered(); // an error Redis replied with
                }
                if (!cause.countsTowardBreaker()) {
                    throw new NotAnOutageException(cause, e);
                }
                throw e;
            }
            answered();
            return value;
        };
    }

    /**
     * What a call started at {@code sentNanos} that ran out of time is: {@link DegradedCause#LOAD} when
     * Redis answered a call of this guard since, else {@link DegradedCause#TIMEOUT}.
     */
    public DegradedCause timeoutSince(long sentNanos) {
        return lastAnswer - sentNanos > 0 ? DegradedCause.LOAD : DegradedCause.TIMEOUT;
    }

    /**
     * Redis answered a call: now is the last time it was heard from. Written at most every {@value
     * #ANSWER_GRAIN_NANOS} ns, so that many threads answered at once do not all write one cache line;
     * a timeout is a budget (milliseconds) after its call was sent, so the grain never decides one.
     */
    private void answered() {
        long now = nanoTime.getAsLong();
        if (now - lastAnswer > ANSWER_GRAIN_NANOS) {
            lastAnswer = now;
        }
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
