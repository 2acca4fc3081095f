package dev.tollgate.internal.ratelimit;

import java.util.function.LongSupplier;

/**
 * The stage that tells the listener of each decision, with how long it took ({@link
 * DecisionListener#UNTIMED} when the store is in this JVM or no listener reads the time), and of each wait.
 */
final class Told implements Stage {

    private final Stage next;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;
    private final boolean timed;

    /** @param storeInThisJvm the store decides in this JVM's memory: its decisions are not timed */
    Told(Stage next, DecisionListener listener, LongSupplier nanoTime, boolean storeInThisJvm) {
        this.next = next;
        this.listener = listener;
        this.nanoTime = nanoTime;
        this.timed = !storeInThisJvm && listener.timesDecisions();
    }

    @Override
    public Charged apply(Ask ask) {
        if (!timed) {
            Charged out = next.apply(ask);
            tell(ask, out, DecisionListener.UNTIMED);
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
