package dev.tollgate.internal.config;

import dev.tollgate.CountOn;
import dev.tollgate.RateCost;
import dev.tollgate.RateKey;
import dev.tollgate.RateLimited;
import java.time.Duration;
import java.util.List;

/**
 * What one method's {@link RateLimited} asks for before it runs ({@link RateLimitedMethods#of}).
 *
 * @param limits the limits, in order; empty when the method is not limited
 * @param keyParameter the index of the {@link RateKey} parameter, or -1
 * @param maxWait how long a call may wait for its tokens ({@link RateLimited#maxWait()}); zero: not at all
 * @param costParameter the index of the {@link RateCost} parameter, or -1
 * @param countOn which outcomes stay counted ({@link RateLimited#countOn()})
 * @param failOn the exceptions that make a call a failure ({@link RateLimited#failOn()})
 */
public record MethodLimits(
        List<String> limits,
        int keyParameter,
        Duration maxWait,
        int costParameter,
        CountOn countOn,
        List<Class<? extends Throwable>> failOn) {

    /** A method without limits of its own. */
    public static final MethodLimits NONE = new MethodLimits(List.of(), -1);

    public MethodLimits {
        limits = List.copyOf(limits);
        failOn = List.copyOf(failOn);
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must be >= 0, but was " + maxWait);
        }
    }

    /** Limits that wait up to {@code maxWait}, at the configured cost, counting every call. */
    public MethodLimits(List<String> limits, int keyParameter, Duration maxWait) {
        this(limits, keyParameter, maxWait, -1, CountOn.ALWAYS, List.of(Throwable.class));
    }

    /** Limits that do not wait. */
    public MethodLimits(List<String> limits, int keyParameter) {
        this(limits, keyParameter, Duration.ZERO);
    }

    /** Whether {@code t} makes the call a failure. */
    public boolean fails(Throwable t) {
        return failOn.stream().anyMatch(c -> c.isInstance(t));
    }

    /** Whether a call may wait for its tokens. */
    public boolean waits() {
        return !maxWait.isZero();
    }

    /** Whether the method has a {@link RateCost} parameter. */
    public boolean costed() {
        return costParameter >= 0;
    }
}
