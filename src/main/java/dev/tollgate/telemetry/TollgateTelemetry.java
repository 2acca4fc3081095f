package dev.tollgate.telemetry;

import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.engine.Reporter;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LeaseListener;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.TracerProvider;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.util.function.BooleanSupplier;

/**
 * Tollgate's events as OpenTelemetry instruments of the meter {@code dev.tollgate}, from the {@link
 * OpenTelemetry} that MicroProfile Telemetry gives the application. A bean only where the application
 * sees the OpenTelemetry API (the CDI extension adds it); with {@code otel.sdk.disabled=true}, Liberty's
 * default, that OpenTelemetry is a no-op and so is every instrument, and decisions are not told to it at
 * all: no instrument and no span would see them.
 */
public class TollgateTelemetry implements Reporter {

    @Inject
    Instance<OpenTelemetry> telemetry;

    private Meter meter;
    private DecisionInstruments decisions;
    private ConcurrencyInstruments concurrency;
    private LockInstruments locks;
    private LeaseInstruments leases;

    @PostConstruct
    void register() {
        // The API visible without mpTelemetry (a WAR that bundles it): the no-op, as OpenTelemetry does.
        register(telemetry.isResolvable() ? telemetry.get() : OpenTelemetry.noop());
    }

    /** Builds the instruments on {@code otel}'s meter {@code dev.tollgate}. */
    void register(OpenTelemetry otel) {
        meter = otel.getMeter(Names.SCOPE);
        decisions = noop(otel) ? null : new DecisionInstruments(meter);
        concurrency = new ConcurrencyInstruments(meter);
        locks = new LockInstruments(meter);
        leases = new LeaseInstruments(meter);
    }

    /**
     * No decision listener when {@code otel} records nothing: its attributes and its look-up of the current
     * span would be made on every decision, for no instrument and no span.
     */
    @Override
    public DecisionListener decisions() {
        return decisions == null ? DecisionListener.NONE : decisions;
    }

    /** Whether {@code otel} is OpenTelemetry's no-op (Liberty's with {@code otel.sdk.disabled=true}): no meter, no tracer. */
    static boolean noop(OpenTelemetry otel) {
        return otel.getMeterProvider() == MeterProvider.noop() && otel.getTracerProvider() == TracerProvider.noop();
    }

    @Override
    public ConcurrencyListener concurrency() {
        return concurrency;
    }

    @Override
    public LockMetrics locks() {
        return locks;
    }

    @Override
    public LockLostListener lockLost() {
        return locks;
    }

    @Override
    public LeaseListener leases() {
        return leases;
    }

    /** {@code tollgate.live_servers}: the servers this one counts by the heartbeat on Redis (1 in process). */
    @Override
    public void liveServers(ServerCount servers) {
        meter.gaugeBuilder(Names.LIVE_SERVERS)
                .ofLongs()
                .setDescription("The servers sharing the limits, as this one last counted them")
                .buildWithCallback(m -> m.record(servers.live()));
    }

    /** {@code tollgate.breaker.open}: 1 while checks are answered without asking Redis, else 0. */
    @Override
    public void breaker(BooleanSupplier open) {
        meter.gaugeBuilder(Names.BREAKER)
                .ofLongs() // no unit: Prometheus names it tollgate_breaker_open, as MicroProfile Metrics does
                .setDescription("1 while checks are answered without asking Redis")
                .buildWithCallback(m -> m.record(open.getAsBoolean() ? 1 : 0));
    }
}
