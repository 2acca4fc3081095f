package dev.tollgate.internal.concurrency;

import dev.tollgate.DegradedCause;

/** Told of every admission and every lease lost, for metrics. Must be quick and must not throw. */
public interface ConcurrencyListener {

    /** A call was admitted or refused; {@code degraded}: the store could not be asked. */
    void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded);

    /** A call admitted or refused without the store, for {@code cause}; by default told as any decision. */
    default void onDegraded(ConcurrencySpec spec, boolean admitted, DegradedCause cause) {
        onDecision(spec, admitted, true);
    }

    /** A running call's lease expired before it ended: for a while the limit may admit one call too many. */
    default void leaseLost(ConcurrencySpec spec) {}

    /** A call started ({@code +1}) or ended ({@code -1}) on this server under {@code spec}. */
    default void running(ConcurrencySpec spec, int delta) {}

    ConcurrencyListener NONE = (spec, admitted, degraded) -> {};
}
