package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LockLost;
import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One source of events, every adapter: each reporter of {@link Reporters#all} hears everything, in order. */
class ReportersTest {

    private final List<String> heard = new ArrayList<>();

    @Test
    void everyReporterHearsEveryKindOfEvent() {
        Reporter all = Reporters.all(List.of(recording("a"), recording("b")));
        LimitSpec limit = new LimitSpec(LimitPolicy.quota("orders", 3), new KeySpec.Global(), true);
        ConcurrencySpec spec = ConcurrencySpec.of("reports", 2);
        all.decisions().onDecision(limit, Decision.degraded(true), 1);
        all.decisions().onDegraded(limit, Decision.degraded(true), DegradedCause.TIMEOUT, 1);
        all.decisions().onHeldDenial(limit);
        all.concurrency().onDecision(spec, true, false);
        all.concurrency().onDegraded(spec, false, DegradedCause.REFUSED);
        all.concurrency().leaseLost(spec);
        all.concurrency().running(spec, 1);
        all.locks().acquired("export");
        all.locks().heldElsewhere("export");
        all.locks().unavailable("export");
        all.lockLost().lockLost(new LockLost("export", 1, LockLost.Reason.TAKEN));
        all.breaker(() -> true);
        List<String> expected = new ArrayList<>();
        for (String event : List.of(
                "decision",
                "degraded timeout",
                "held",
                "admission",
                "admission degraded refused",
                "lease lost",
                "running 1",
                "acquired",
                "held elsewhere",
                "unavailable",
                "lost TAKEN",
                "breaker true")) {
            expected.add("a " + event);
            expected.add("b " + event);
        }
        assertEquals(expected, heard);
    }

    @Test
    void oneReporterIsItselfAndNoneReportsNothing() {
        Reporter one = recording("a");
        assertSame(one, Reporters.all(List.of(one)));
        Reporter none = Reporters.all(List.of());
        none.locks().acquired("export");
        none.decisions().onHeldDenial(new LimitSpec(LimitPolicy.quota("x", 1), new KeySpec.Global(), true));
        assertEquals(List.of(), heard);
    }

    private Reporter recording(String name) {
        return new Reporter() {
            @Override
            public DecisionListener decisions() {
                return new DecisionListener() {
                    @Override
                    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
                        heard.add(name + " decision");
                    }

                    @Override
                    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
                        heard.add(name + " degraded " + cause.tag());
                    }

                    @Override
                    public void onHeldDenial(LimitSpec limit) {
                        heard.add(name + " held");
                    }
                };
            }

            @Override
            public ConcurrencyListener concurrency() {
                return new ConcurrencyListener() {
                    @Override
                    public void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded) {
                        heard.add(name + " admission");
                    }

                    @Override
                    public void onDegraded(ConcurrencySpec spec, boolean admitted, DegradedCause cause) {
                        heard.add(name + " admission degraded " + cause.tag());
                    }

                    @Override
                    public void leaseLost(ConcurrencySpec spec) {
                        heard.add(name + " lease lost");
                    }

                    @Override
                    public void running(ConcurrencySpec spec, int delta) {
                        heard.add(name + " running " + delta);
                    }
                };
            }

            @Override
            public LockMetrics locks() {
                return new LockMetrics() {
                    @Override
                    public void acquired(String lock) {
                        heard.add(name + " acquired");
                    }

                    @Override
                    public void heldElsewhere(String lock) {
                        heard.add(name + " held elsewhere");
                    }

                    @Override
                    public void unavailable(String lock) {
                        heard.add(name + " unavailable");
                    }
                };
            }

            @Override
            public LockLostListener lockLost() {
                return lost -> heard.add(name + " lost " + lost.reason());
            }

            @Override
            public void breaker(java.util.function.BooleanSupplier open) {
                heard.add(name + " breaker " + open.getAsBoolean());
            }
        };
    }
}
