package dev.tollgate.internal.engine;

import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LeaseListener;
import java.util.function.BooleanSupplier;

/**
 * One place the engine's events are reported: each reporting adapter (MicroProfile Metrics, OpenTelemetry)
 * is one, and {@link Reporters#all} tells every one of them the same events. A part a reporter leaves out
 * tells nobody.
 */
public interface Reporter {

    /** Rate-limit decisions, degraded ones by cause, waits, refunds, the local fallback's and held denials. */
    default DecisionListener decisions() {
        return DecisionListener.NONE;
    }

    /** Concurrency limits' admissions, leases lost and calls in flight. */
    default ConcurrencyListener concurrency() {
        return ConcurrencyListener.NONE;
    }

    /** Job runs by outcome, per lock. */
    default LockMetrics locks() {
        return LockMetrics.NONE;
    }

    /** Held locks found lost. */
    default LockLostListener lockLost() {
        return LockLostListener.NONE;
    }

    /** Leased limits' leases taken, tokens given back or lost, and calls decided locally or by Redis. */
    default LeaseListener leases() {
        return LeaseListener.NONE;
    }

    /** Reports the live servers this one counts ({@code Engine.servers()}). */
    default void liveServers(ServerCount servers) {}

    /** Reports the circuit breaker: {@code open} says whether checks are answered without Redis now. */
    default void breaker(BooleanSupplier open) {}

    /** Reports nothing. */
    Reporter NONE = new Reporter() {};
}
