package dev.tollgate.internal.engine;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;

/**
 * What the console is told of every decision: its recent activity, then its outages, then its most denied
 * clients, each of everything, as {@link DecisionListener#both} of the three would tell them. One class of
 * their own types, so that every decision calls each directly (nested {@code both} calls them through one
 * shared class whose every call site sees several listeners).
 */
final class ConsoleListeners implements DecisionListener {

    private final Activity activity;
    private final OutageLog outages;
    private final DeniedClients denied;
    private final boolean timed;

    ConsoleListeners(Activity activity, OutageLog outages, DeniedClients denied) {
        this.activity = activity;
        this.outages = outages;
        this.denied = denied;
        this.timed = activity.timesDecisions() || outages.timesDecisions() || denied.timesDecisions();
    }

    @Override
    public boolean timesDecisions() {
        return timed;
    }

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
        activity.onDecision(limit, decision, nanos);
        outages.onDecision(limit, decision, nanos);
        denied.onDecision(limit, decision, nanos);
    }

    @Override
    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        activity.onDegraded(limit, decision, cause, nanos);
        outages.onDegraded(limit, decision, cause, nanos);
        denied.onDegraded(limit, decision, cause, nanos);
    }

    @Override
    public void onCharged(Charged charged, long nanos) {
        activity.onCharged(charged, nanos);
        outages.onCharged(charged, nanos);
        denied.onCharged(charged, nanos);
    }

    @Override
    public void decided(Charged charged, long nanos) {
        activity.decided(charged, nanos);
        outages.decided(charged, nanos);
        denied.decided(charged, nanos);
    }

    @Override
    public void onWait(LimitSpec limit, Duration wait) {
        activity.onWait(limit, wait);
        outages.onWait(limit, wait);
        denied.onWait(limit, wait);
    }

    @Override
    public void onRefund(LimitSpec limit, boolean given) {
        activity.onRefund(limit, given);
        outages.onRefund(limit, given);
        denied.onRefund(limit, given);
    }

    @Override
    public void onLocalDecision(LimitSpec limit, Decision decision) {
        activity.onLocalDecision(limit, decision);
        outages.onLocalDecision(limit, decision);
        denied.onLocalDecision(limit, decision);
    }

    @Override
    public void onHeldDenial(LimitSpec limit) {
        activity.onHeldDenial(limit);
        outages.onHeldDenial(limit);
        denied.onHeldDenial(limit);
    }
}
