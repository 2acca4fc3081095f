package dev.tollgate.internal.engine;

import dev.tollgate.Decision;
import dev.tollgate.Estimate;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.RateLimiter;
import java.util.concurrent.atomic.AtomicBoolean;

/** An {@link Estimate}: the charge spent up front, settled once through the limiter. */
final class Settlement implements Estimate {

    private final RateLimiter limiter;
    private final Charged charged;
    private final AtomicBoolean settled = new AtomicBoolean();

    Settlement(RateLimiter limiter, Charged charged) {
        this.limiter = limiter;
        this.charged = charged;
    }

    @Override
    public Decision decision() {
        return charged.decision();
    }

    @Override
    public long estimate() {
        return charged.charge().cost();
    }

    @Override
    public boolean settle(long actual) {
        dev.tollgate.LimitRules.settledCostProblem(actual).ifPresent(p -> {
            throw new IllegalArgumentException("limit '" + charged.charge().name() + "': " + p);
        });
        if (!settled.compareAndSet(false, true)) {
            throw new IllegalStateException("limit '" + charged.charge().name() + "': settled already");
        }
        return limiter.settle(charged, actual);
    }
}
