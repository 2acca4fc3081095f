package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The stage that answers a key the store denied from this JVM until its retry-after has passed, and
 * holds the store's new denials ({@link DeniedCache}). Only where the hold is exact: a call under the
 * limit's own policy and cost that does not wait (a waiting call may be admitted before the
 * retry-after, by reserving).
 */
final class HeldDenials implements Stage {

    private final Stage next;
    private final DeniedCache denials;
    private final DecisionListener listener;
    private final LongSupplier nanoTime;

    /** @param denials where denials are held; null: every call asks */
    HeldDenials(Stage next, DeniedCache denials, DecisionListener listener, LongSupplier nanoTime) {
        this.next = next;
        this.denials = denials;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    @Override
    public Charged apply(Ask ask) {
        if (denials == null || !ask.charge().own() || ask.waits() || ask.replay() != null) {
            return next.apply(ask);
        }
        Decision held = denials.denial(ask.storeKey()).orElse(null);
        if (held != null) {
            listener.onHeldDenial(ask.limit());
            return new Charged(ask.charge(), held, 0, Duration.ZERO, false);
        }
        long sent = nanoTime.getAsLong();
        Charged out = next.apply(ask);
        if (out.cause() == null && !out.decision().allowed()) {
            denials.hold(ask.storeKey(), sent, out.decision());
        }
        return out;
    }

    /** Forgets the denials held for {@code storeKey}, or for every key when it is null. */
    void forget(String storeKey) {
        if (denials != null && storeKey != null) {
            denials.forget(storeKey);
        } else if (denials != null) {
            denials.clear();
        }
    }
}
