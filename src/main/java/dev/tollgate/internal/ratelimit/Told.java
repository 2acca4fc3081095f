package dev.tollgate.internal.ratelimit;

import java.util.function.LongSupplier;

/** The stage that tells the listener of each decision, with how long it took, and of each wait. */
final class Told implements Stage {

    private final Stage next;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;
    private final boolean timed;

    Told(Stage next, DecisionListener listener, LongSupplier nanoTime) {
        this.next = next;
        this.listener = listener;
        this.nanoTime = nanoTime;
        this.timed = listener.timesDecisions();
    }

    @Override
    public Charged apply(Ask ask) {
        if (!timed) {
            Charged out = next.apply(ask);
            tell(ask, out, 0);
            return out;
        }
        long start = nanoTime.getAsLong();
        Charged out = next.apply(ask);
        tell(ask, out, nanoTime.getAsLong() - start);
        return out;
    }

    /** A part of an admission as {@link DecisionListener#onCharged}, a lone check as a decision. */
    void tell(Ask ask, Charged out, long nanos) {
        if (ask.admission()) {
            listener.onCharged(out, nanos);
        } else {
            listener.decided(out, nanos);
        }
        if (!out.delay().isZero()) {
            listener.onWait(ask.limit(), out.delay());
        }
    }
}
