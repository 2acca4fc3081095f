package dev.tollgate.telemetry;

import static dev.tollgate.telemetry.Names.CAUSE;
import static dev.tollgate.telemetry.Names.LIMIT;
import static dev.tollgate.telemetry.Names.RESULT;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.api.metrics.Meter;

/** Concurrency limits' admissions, leases lost and calls in flight, as OpenTelemetry instruments. */
final class ConcurrencyInstruments implements ConcurrencyListener {

    private final LongCounter decisions;
    private final LongCounter degraded;
    private final LongCounter lost;
    private final LongUpDownCounter inFlight;

    ConcurrencyInstruments(Meter meter) {
        decisions = DecisionInstruments.counter(
                meter, Names.CONCURRENCY, "{decision}", "Concurrency-limit admissions Redis decided");
        degraded = DecisionInstruments.counter(
                meter, Names.CONCURRENCY_DEGRADED, "{decision}", "Concurrency-limit admissions made without Redis");
        lost = DecisionInstruments.counter(meter, Names.LEASES_LOST, "{lease}", "Calls that outlived their lease");
        inFlight = meter.upDownCounterBuilder(Names.IN_FLIGHT)
                .setUnit("{call}")
                .setDescription("Calls this server runs under the limit now")
                .build();
    }

    @Override
    public void onDecision(ConcurrencySpec spec, boolean admitted, boolean wasDegraded) {
        if (wasDegraded) {
            onDegraded(spec, admitted, DegradedCause.REFUSED); // told without its cause
            return;
        }
        decisions.add(1, Attributes.of(LIMIT, spec.name(), RESULT, admitted ? "allowed" : "denied"));
    }

    @Override
    public void onDegraded(ConcurrencySpec spec, boolean admitted, DegradedCause cause) {
        degraded.add(1, Attributes.of(LIMIT, spec.name(), RESULT, admitted ? "allowed" : "denied", CAUSE, cause.tag()));
    }

    @Override
    public void leaseLost(ConcurrencySpec spec) {
        lost.add(1, Attributes.of(LIMIT, spec.name()));
    }

    @Override
    public void running(ConcurrencySpec spec, int delta) {
        inFlight.add(delta, Attributes.of(LIMIT, spec.name()));
    }
}
