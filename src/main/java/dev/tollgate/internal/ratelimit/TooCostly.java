package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import java.time.Duration;

/**
 * The stage that denies a charge costing more than one call may ({@link Charge#neverPasses()}) without
 * asking the store, whose script would refuse its arguments; its candidate is not asked either.
 */
final class TooCostly implements Stage {

    private static final Decision NEVER = new Decision(false, 0, Decision.NEVER, Duration.ZERO, false);

    private final Stage next;
    private final Told told;

    TooCostly(Stage next, Told told) {
        this.next = next;
        this.told = told;
    }

    @Override
    public Charged apply(Ask ask) {
        if (!ask.charge().neverPasses()) {
            return next.apply(ask);
        }
        Charged out = new Charged(ask.charge(), NEVER, 0, Duration.ZERO, false);
        told.tell(ask, out, 0);
        return out;
    }
}
