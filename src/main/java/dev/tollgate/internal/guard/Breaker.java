package dev.tollgate.internal.guard;

import java.util.concurrent.Callable;

/**
 * A circuit breaker around one Redis call, run on a worker thread of {@link ExecutorCaller}: in a server,
 * MicroProfile Fault Tolerance's ({@code dev.tollgate.cdi.MicroProfileBreaker}); in plain Java and per
 * Redis Cluster master, Tollgate's own {@link ConsecutiveFailuresBreaker}. A {@link NotAnOutageException}
 * is an answer, not a failure: it never counts toward opening the breaker.
 */
public interface Breaker {

    /** Runs {@code call} if the breaker lets it, recording its outcome. */
    <T> T call(Callable<T> call) throws Exception;

    /**
     * Counts a failure of a call made outside {@link #call} (on the caller's own thread): the breaker
     * sees it exactly as if {@code call} had thrown it. Throws {@code failure}, or the breaker's refusal
     * when it was already open.
     */
    default void record(Exception failure) throws Exception {
        call(() -> {
            throw failure;
        });
    }

    /**
     * Whether this breaker must see every successful call, not only the first after a failure: true
     * unless it opens on failures in a row and one success closes it (Fault Tolerance's {@code
     * failureRatio=1, successThreshold=1}, Tollgate's defaults), for which the calls it is shown decide
     * exactly as all of them would. {@link ExecutorCaller} then shows it every call.
     */
    default boolean needsEverySuccess() {
        return false;
    }

    /** Whether {@code failure} means the breaker refused the call. */
    boolean isOpenFailure(Throwable failure);

    /** Whether {@code failure} means the breaker timed the call out. */
    default boolean isTimeout(Throwable failure) {
        return false;
    }

    /** Tollgate's own breaker with {@code settings}' threshold and delay. */
    static Breaker of(GuardSettings settings) {
        return new ConsecutiveFailuresBreaker(settings.failureThreshold(), settings.breakerDelay(), System::nanoTime);
    }
}
