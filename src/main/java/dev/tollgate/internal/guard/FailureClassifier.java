package dev.tollgate.internal.guard;

import dev.tollgate.DegradedCause;

/**
 * Says why a store call failed: {@code dev.tollgate.internal.redis.RedisFailures::classify} for Redis. The guard
 * asks it inside the breaker, so that only outages ({@link DegradedCause#countsTowardBreaker()}) reach it.
 */
@FunctionalInterface
public interface FailureClassifier {

    DegradedCause classify(Throwable failure);

    /** Every failure an outage: for stores whose errors all mean that the store is unusable. */
    FailureClassifier ALL_OUTAGES = failure -> DegradedCause.REFUSED;
}
