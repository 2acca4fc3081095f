package dev.tollgate.internal.guard;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;

/**
 * A breaker for plain Java, with MicroProfile Fault Tolerance's semantics for {@code failureRatio=1}:
 * {@code threshold} failures in a row open it; after {@code delay} one trial call is let through
 * (half-open); its success closes it, its failure opens it again. A {@link NotAnOutageException} counts
 * as a success, as in Fault Tolerance's {@code skipOn}.
 */
public final class ConsecutiveFailuresBreaker implements Breaker {

    private enum State {
        CLOSED,
        OPEN,
        HALF_OPEN
    }

    private final int threshold;
    private final long delayNanos;
    private final LongSupplier nanoTime;
    private State state = State.CLOSED;
    private int failures;
    private long openedAt;

    public ConsecutiveFailuresBreaker(int threshold, Duration delay, LongSupplier nanoTime) {
        this.threshold = threshold;
        this.delayNanos = delay.toNanos();
        this.nanoTime = nanoTime;
    }

    @Override
    public <T> T call(Callable<T> call) throws Exception {
        acquire();
        T value;
        try {
            value = call.call();
        } catch (NotAnOutageException answered) {
            onSuccess(); // Redis answered: as Fault Tolerance's skipOn
            throw answered;
        } catch (Exception e) {
            onFailure();
            throw e;
        }
        onSuccess();
        return value;
    }

    @Override
    public boolean isOpenFailure(Throwable failure) {
        return failure instanceof BreakerOpenException;
    }

    /** Throws {@link BreakerOpenException} unless a call may go ahead now. */
    synchronized void acquire() {
        if (state == State.CLOSED) {
            return;
        }
        if (state == State.OPEN && nanoTime.getAsLong() - openedAt >= delayNanos) {
            state = State.HALF_OPEN;
            return;
        }
        throw new BreakerOpenException();
    }

    synchronized void onSuccess() {
        state = State.CLOSED;
        failures = 0;
    }

    synchronized void onFailure() {
        if (state == State.HALF_OPEN || ++failures >= threshold) {
            state = State.OPEN;
            openedAt = nanoTime.getAsLong();
            failures = 0;
        }
    }

    synchronized boolean isOpen() {
        return state != State.CLOSED;
    }
}
