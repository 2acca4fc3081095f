package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import java.time.Duration;

/**
 * The outermost stage: a shadow limit lets the call pass whatever it decided (what it took stays
 * taken); a denial is counted and logged ({@link ShadowLog}), never given. A shadow limit never waits.
 */
final class Shadow implements Stage {

    private final Stage next;
    private final ShadowLog log;

    Shadow(Stage next, ShadowLog log) {
        this.next = next;
        this.log = log;
    }

    @Override
    public Charged apply(Ask ask) {
        Charged out = next.apply(ask);
        if (!ask.limit().shadow() || out.decision().allowed()) {
            return out;
        }
        log.wouldDeny(ask.limit());
        Decision d = out.decision();
        Decision passed = new Decision(true, d.remaining(), Duration.ZERO, d.resetAfter(), d.degraded());
        return new Charged(
                out.charge(),
                passed,
                out.mark(),
                Duration.ZERO,
                out.spent(),
                out.cause(),
                out.replay(),
                out.replayed());
    }
}
