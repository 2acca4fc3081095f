package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;

/** Told of every decision, for metrics. Must be quick and must not throw. */
@FunctionalInterface
public interface DecisionListener {

    /**
     * The {@code nanos} of a decision that was not timed: one made in this JVM's memory (the in-process
     * store waits on nothing, and timing it would cost more than deciding it), or one no listener reads
     * the time of ({@link #timesDecisions}).
     */
    long UNTIMED = -1;

    /** {@code nanos}: how long the check took, store and guard included; {@link #UNTIMED} when not timed. */
    void onDecision(LimitSpec limit, Decision decision, long nanos);

    /**
     * A degraded decision, made without Redis for {@code cause}; by default told as any decision.
     * {@code nanos}: how long the check took.
     */
    default void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        onDecision(limit, decision, nanos);
    }

    /**
     * One limit's part of an admission ({@link RateLimiter#admit}), with the plan it was spent under;
     * by default {@link #onDecision}, or {@link #onDegraded} with its cause.
     */
    default void onCharged(Charged charged, long nanos) {
        decided(charged, nanos);
    }

    /** Tells {@link #onDecision} or, when the store did not decide, {@link #onDegraded}, of {@code charged}. */
    default void decided(Charged charged, long nanos) {
        if (charged.cause() == null) {
            onDecision(charged.charge().limit(), charged.decision(), nanos);
        } else {
            onDegraded(charged.charge().limit(), charged.decision(), charged.cause(), nanos);
        }
    }

    /** A waiting call reserved its tokens and waits {@code wait} for them before it runs. */
    default void onWait(LimitSpec limit, java.time.Duration wait) {}

    /**
     * Tokens an allowed call took were given back (a call denied by another of its limits, an outcome
     * not counted); {@code given} false when the store could not be asked, and the tokens stay spent.
     */
    default void onRefund(LimitSpec limit, boolean given) {}

    /**
     * The store could not be asked and the limit's local fallback decided (an in-process bucket of this
     * server's share); {@link #onDegraded} is told of the same decision as well.
     */
    default void onLocalDecision(LimitSpec limit, Decision decision) {}

    /**
     * A call on a key the store had denied was denied again in this JVM, without asking the store (its
     * retry-after had not passed); {@link #onDecision} is told of the same decision as well.
     */
    default void onHeldDenial(LimitSpec limit) {}

    /**
     * Whether this listener reads the {@code nanos} it is told; when no listener does, no decision is
     * timed and they are told {@link #UNTIMED} (two reads of the clock fewer per check). Default true.
     */
    default boolean timesDecisions() {
        return true;
    }

    /** Tells {@code first}, then {@code second}, of everything (a method added here must be added there too). */
    static DecisionListener both(DecisionListener first, DecisionListener second) {
        if (second == NONE) {
            return first; // one call fewer per event for each NONE: the engine adds the builder's listener, NONE by
            // default
        }
        if (first == NONE) {
            return second;
        }
        boolean timed = first.timesDecisions() || second.timesDecisions();
        return new DecisionListener() {
            @Override
            public boolean timesDecisions() {
                return timed;
            }

            @Override
            public void onDecision(LimitSpec limit, Decision decision, long nanos) {
                first.onDecision(limit, decision, nanos);
                second.onDecision(limit, decision, nanos);
            }

            @Override
            public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
                first.onDegraded(limit, decision, cause, nanos);
                second.onDegraded(limit, decision, cause, nanos);
            }

            @Override
            public void decided(Charged charged, long nanos) {
                first.decided(charged, nanos);
                second.decided(charged, nanos);
            }

            @Override
            public void onWait(LimitSpec limit, java.time.Duration wait) {
                first.onWait(limit, wait);
                second.onWait(limit, wait);
            }

            @Override
            public void onCharged(Charged charged, long nanos) {
                first.onCharged(charged, nanos);
                second.onCharged(charged, nanos);
            }

            @Override
            public void onRefund(LimitSpec limit, boolean given) {
                first.onRefund(limit, given);
                second.onRefund(limit, given);
            }

            @Override
            public void onLocalDecision(LimitSpec limit, Decision decision) {
                first.onLocalDecision(limit, decision);
                second.onLocalDecision(limit, decision);
            }

            @Override
            public void onHeldDenial(LimitSpec limit) {
                first.onHeldDenial(limit);
                second.onHeldDenial(limit);
            }
        };
    }

    DecisionListener NONE = new DecisionListener() {
        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {}

        @Override
        public boolean timesDecisions() {
            return false;
        }
    };
}
