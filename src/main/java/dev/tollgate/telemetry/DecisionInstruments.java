package dev.tollgate.telemetry;

import static dev.tollgate.telemetry.Names.CAUSE;
import static dev.tollgate.telemetry.Names.CLIENT_HASH;
import static dev.tollgate.telemetry.Names.DEGRADED_FLAG;
import static dev.tollgate.telemetry.Names.LIMIT;
import static dev.tollgate.telemetry.Names.PLAN;
import static dev.tollgate.telemetry.Names.REMAINING;
import static dev.tollgate.telemetry.Names.RESULT;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.trace.Span;
import java.time.Duration;
import java.util.List;

/**
 * Rate-limit decisions as OpenTelemetry instruments, and each decision of a call on its current span: an
 * event per limit, and the span's attributes for the last limit told (a denial ends an admission, so a
 * denied call's span names the limit that denied it).
 */
final class DecisionInstruments implements DecisionListener {

    /** Check times: from a tenth of a millisecond (a pipelined Redis round trip) to the 2 s budget's end. */
    private static final List<Double> SECONDS =
            List.of(0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5);

    private final LongCounter decisions;
    private final LongCounter degraded;
    private final DoubleHistogram duration;
    private final DoubleHistogram waits;
    private final LongCounter plans;
    private final LongCounter local;
    private final LongCounter held;
    private final LongCounter refunds;

    DecisionInstruments(Meter meter) {
        decisions = counter(meter, Names.DECISIONS, "{decision}", "Rate-limit decisions Redis made");
        degraded = counter(meter, Names.DEGRADED, "{decision}", "Rate-limit decisions made without Redis, by cause");
        duration = meter.histogramBuilder(Names.DURATION)
                .setUnit("s")
                .setDescription("How long a rate-limit check that asked Redis took, store and guard included")
                .setExplicitBucketBoundariesAdvice(SECONDS)
                .build();
        waits = meter.histogramBuilder(Names.WAIT)
                .setUnit("s")
                .setDescription("How long waiting calls (maxWait) waited for their tokens")
                .build();
        plans = counter(meter, Names.PLAN_DECISIONS, "{decision}", "Decisions of calls spent under a plan");
        local = counter(meter, Names.LOCAL, "{decision}", "Decisions of this server's local fallback");
        held = counter(meter, Names.HELD, "{decision}", "Denials answered in this server without asking Redis");
        refunds = counter(meter, Names.REFUNDS, "{refund}", "Tokens given back, or lost when Redis could not be asked");
    }

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
        decisions.add(1, Attributes.of(LIMIT, limit.name(), RESULT, result(limit, decision)));
        time(limit, nanos);
    }

    @Override
    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        degraded.add(1, Attributes.of(LIMIT, limit.name(), RESULT, result(limit, decision), CAUSE, cause.tag()));
        time(limit, nanos);
    }

    /** Counts the decision as {@link DecisionListener#decided} does, and puts it on the current span. */
    @Override
    public void decided(Charged charged, long nanos) {
        DecisionListener.super.decided(charged, nanos);
        Span span = Span.current();
        if (span.isRecording()) {
            Attributes seen = onSpan(charged);
            span.addEvent(Names.EVENT, seen);
            span.setAllAttributes(seen);
        }
    }

    @Override
    public void onCharged(Charged charged, long nanos) {
        decided(charged, nanos);
        String plan = charged.charge().plan();
        if (plan != null) {
            plans.add(
                    1,
                    Attributes.of(
                            LIMIT,
                            charged.charge().name(),
                            PLAN,
                            plan,
                            RESULT,
                            charged.decision().allowed() ? "allowed" : "denied"));
        }
    }

    @Override
    public void onWait(LimitSpec limit, Duration wait) {
        waits.record(wait.toNanos() / 1e9, Attributes.of(LIMIT, limit.name()));
    }

    @Override
    public void onRefund(LimitSpec limit, boolean given) {
        refunds.add(1, Attributes.of(LIMIT, limit.name(), RESULT, given ? "given" : "lost"));
    }

    @Override
    public void onLocalDecision(LimitSpec limit, Decision decision) {
        local.add(1, Attributes.of(LIMIT, limit.name(), RESULT, decision.allowed() ? "allowed" : "denied"));
    }

    @Override
    public void onHeldDenial(LimitSpec limit) {
        held.add(1, Attributes.of(LIMIT, limit.name()));
    }

    /** The span's view of one decision: the limit, the result, the remaining count, the cause, the client's hash. */
    static Attributes onSpan(Charged charged) {
        LimitSpec limit = charged.charge().limit();
        AttributesBuilder b = Attributes.builder()
                .put(LIMIT, limit.name())
                .put(RESULT, result(limit, charged.decision()))
                .put(REMAINING, charged.decision().remaining())
                .put(DEGRADED_FLAG, charged.decision().degraded());
        try {
            b.put(CLIENT_HASH, StoreKeys.clientHash(charged.charge().clientKey()));
        } catch (RuntimeException tooLong) {
            // a key the limiter refused to hash names no bucket: the span says nothing of the client
        }
        if (charged.cause() != null) {
            b.put(CAUSE, charged.cause().tag());
        }
        return b.build();
    }

    static String result(LimitSpec limit, Decision decision) {
        return decision.allowed() ? "allowed" : limit.shadow() ? "would_deny" : "denied";
    }

    private void time(LimitSpec limit, long nanos) {
        if (nanos == DecisionListener.UNTIMED) {
            return; // decided in this JVM's memory: nothing to time
        }
        duration.record(nanos / 1e9, Attributes.of(LIMIT, limit.name()));
    }

    static LongCounter counter(Meter meter, String name, String unit, String description) {
        return meter.counterBuilder(name)
                .setUnit(unit)
                .setDescription(description)
                .build();
    }
}
