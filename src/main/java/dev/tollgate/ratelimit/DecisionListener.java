package dev.tollgate.ratelimit;

import dev.tollgate.Decision;

/** Told of every decision, for metrics. Must be quick and must not throw. */
@FunctionalInterface
public interface DecisionListener {

    /** {@code nanos}: how long the check took, store and guard included. */
    void onDecision(LimitSpec limit, Decision decision, long nanos);

    DecisionListener NONE = (limit, decision, nanos) -> {};
}
