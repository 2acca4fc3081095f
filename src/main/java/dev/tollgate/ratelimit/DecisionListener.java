package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;

/** Told of every decision, for metrics. Must be quick and must not throw. */
@FunctionalInterface
public interface DecisionListener {

    /** {@code nanos}: how long the check took, store and guard included. */
    void onDecision(LimitSpec limit, Decision decision, long nanos);

    /**
     * A degraded decision, made without Redis for {@code cause}; by default told as any decision.
     * {@code nanos}: how long the check took.
     */
    default void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        onDecision(limit, decision, nanos);
    }

    /** A waiting call reserved its tokens and waits {@code wait} for them before it runs. */
    default void onWait(LimitSpec limit, java.time.Duration wait) {}

    DecisionListener NONE = (limit, decision, nanos) -> {};
}
