package dev.tollgate.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LockLost;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.TracerProvider;
import io.opentelemetry.context.Scope;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.HistogramPointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenTelemetry adapter on the real SDK, fed by a real engine on a real Redis: what an exporter
 * receives (names, attributes, counts), and what a request's span carries (the decision, the client only
 * as its hash).
 */
class TollgateTelemetryTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private final InMemoryMetricReader metrics = InMemoryMetricReader.create();
    private final InMemorySpanExporter spans = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setMeterProvider(
                    SdkMeterProvider.builder().registerMetricReader(metrics).build())
            .setTracerProvider(SdkTracerProvider.builder()
                    .addSpanProcessor(SimpleSpanProcessor.create(spans))
                    .build())
            .build();
    private final TollgateTelemetry telemetry = new TollgateTelemetry();

    @AfterEach
    void close() {
        sdk.close();
    }

    private Engine engine(String... more) {
        telemetry.register(sdk);
        String[] base = {
            "tollgate.redis.url", redis.url(),
            "tollgate.limits.orders.capacity", "3",
            "tollgate.limits.orders.refill-tokens", "1",
            "tollgate.limits.orders.refill-period", "1h"
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return Engine.builder(TestSettings.read(all))
                .listener(telemetry.decisions())
                .build();
    }

    @Test
    void tenChecksOfCapacityThreeCountThreeAllowedAndSevenDeniedWithOneCheckTimeEach() {
        try (Engine engine = engine()) {
            for (int i = 0; i < 10; i++) {
                engine.check("orders", "ten-checks");
            }
        }
        Collection<MetricData> exported = metrics.collectAllMetrics();
        assertEquals(3, count(exported, Names.DECISIONS, "orders", "allowed"), exported.toString());
        assertEquals(7, count(exported, Names.DECISIONS, "orders", "denied"));
        MetricData duration = metric(exported, Names.DURATION);
        assertEquals("s", duration.getUnit());
        HistogramPointData times =
                duration.getHistogramData().getPoints().iterator().next();
        assertEquals(10, times.getCount());
        assertEquals(Attributes.of(Names.LIMIT, "orders"), times.getAttributes());
        assertTrue(exported.stream()
                .allMatch(m -> m.getInstrumentationScopeInfo().getName().equals("dev.tollgate")));
    }

    @Test
    void noAttributeHoldsTheClientKey() {
        try (Engine engine = engine()) {
            for (int i = 0; i < 5; i++) {
                engine.check("orders", "alice@example.com");
            }
        }
        for (MetricData m : metrics.collectAllMetrics()) {
            m.getData().getPoints().forEach(p -> p.getAttributes()
                    .forEach((k, v) -> assertFalse(v.toString().contains("alice"), m.getName() + " " + k)));
        }
    }

    @Test
    void theCurrentSpanGetsTheDecisionAndTheClientsHashOnly() {
        try (Engine engine = engine()) {
            Span span = sdk.getTracer("test").spanBuilder("POST /orders").startSpan();
            try (Scope in = span.makeCurrent()) {
                for (int i = 0; i < 4; i++) {
                    engine.check("orders", "alice");
                }
            } finally {
                span.end();
            }
        }
        SpanData span = spans.getFinishedSpanItems().get(0);
        List<EventData> events = span.getEvents();
        assertEquals(4, events.size());
        Attributes last = events.get(3).getAttributes();
        assertEquals("tollgate.rate_limiting.decision", events.get(3).getName());
        assertEquals("orders", last.get(Names.LIMIT));
        assertEquals("denied", last.get(Names.RESULT));
        assertEquals(0L, last.get(Names.REMAINING));
        assertEquals(StoreKeys.clientHash("alice"), last.get(Names.CLIENT_HASH));
        assertEquals(2L, events.get(0).getAttributes().get(Names.REMAINING));
        assertEquals("denied", span.getAttributes().get(Names.RESULT), "the span says how its call ended");
        span.getAttributes().forEach((k, v) -> assertFalse(v.toString().equals("alice"), k.getKey()));
    }

    @Test
    void aFrozenRedisCountsDegradedDecisionsByCause() throws Exception {
        try (Engine engine = engine("tollgate.redis.timeout", "200ms")) {
            engine.check("orders", "warm-up"); // the script is loaded and a connection open
            redis.pause();
            try {
                engine.check("orders", "frozen");
            } finally {
                redis.resume();
            }
        }
        Collection<MetricData> exported = metrics.collectAllMetrics();
        LongPointData degraded = metric(exported, Names.DEGRADED)
                .getLongSumData()
                .getPoints()
                .iterator()
                .next();
        assertEquals("orders", degraded.getAttributes().get(Names.LIMIT));
        assertEquals("timeout", degraded.getAttributes().get(Names.CAUSE));
        assertEquals(1, degraded.getValue());
        assertEquals(1, count(exported, Names.DECISIONS, "orders", "allowed"), "the warm-up only");
    }

    @Test
    void aNoOpOpenTelemetryIsToldOfNoDecisionButOneWithAMeterOrATracerIs() {
        telemetry.register(OpenTelemetry.noop());
        assertSame(DecisionListener.NONE, telemetry.decisions(), "no-op: nothing to tell");
        telemetry.register(otel(sdk.getMeterProvider(), TracerProvider.noop()));
        assertNotSame(DecisionListener.NONE, telemetry.decisions(), "a meter");
        telemetry.register(otel(MeterProvider.noop(), sdk.getTracerProvider()));
        assertNotSame(DecisionListener.NONE, telemetry.decisions(), "a tracer");
    }

    private static OpenTelemetry otel(MeterProvider meters, TracerProvider tracers) {
        return new OpenTelemetry() {
            @Override
            public MeterProvider getMeterProvider() {
                return meters;
            }

            @Override
            public TracerProvider getTracerProvider() {
                return tracers;
            }

            @Override
            public ContextPropagators getPropagators() {
                return ContextPropagators.noop();
            }
        };
    }

    @Test
    void locksAndTheBreakerAreInstrumentsToo() {
        telemetry.register(sdk);
        AtomicBoolean open = new AtomicBoolean(true);
        telemetry.breaker(open::get);
        telemetry.locks().acquired("export");
        telemetry.locks().heldElsewhere("export");
        telemetry.locks().heldElsewhere("export");
        telemetry.lockLost().lockLost(new LockLost("export", 7, LockLost.Reason.EXPIRED));
        Collection<MetricData> exported = metrics.collectAllMetrics();
        assertEquals(1, lockRuns(exported, "acquired"));
        assertEquals(2, lockRuns(exported, "held_elsewhere"));
        LongPointData lost = metric(exported, Names.LOCK_LOST)
                .getLongSumData()
                .getPoints()
                .iterator()
                .next();
        assertEquals("expired", lost.getAttributes().get(Names.LOST_REASON));
        assertEquals(1, breaker(exported));
        open.set(false);
        assertEquals(0, breaker(metrics.collectAllMetrics()));
    }

    private static long breaker(Collection<MetricData> exported) {
        return metric(exported, Names.BREAKER)
                .getLongGaugeData()
                .getPoints()
                .iterator()
                .next()
                .getValue();
    }

    private static long lockRuns(Collection<MetricData> exported, String result) {
        return metric(exported, Names.LOCK_RUNS).getLongSumData().getPoints().stream()
                .filter(p -> result.equals(p.getAttributes().get(Names.RESULT)))
                .mapToLong(LongPointData::getValue)
                .sum();
    }

    private static long count(Collection<MetricData> exported, String name, String limit, String result) {
        return exported.stream()
                .filter(m -> m.getName().equals(name))
                .flatMap(m -> m.getLongSumData().getPoints().stream())
                .filter(p -> limit.equals(p.getAttributes().get(Names.LIMIT))
                        && result.equals(p.getAttributes().get(AttributeKey.stringKey("tollgate.result"))))
                .mapToLong(LongPointData::getValue)
                .sum();
    }

    private static MetricData metric(Collection<MetricData> exported, String name) {
        return exported.stream()
                .filter(m -> m.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not exported: " + exported));
    }
}
