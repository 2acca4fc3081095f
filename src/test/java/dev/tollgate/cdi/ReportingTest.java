package dev.tollgate.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.engine.Reporter;
import dev.tollgate.metrics.MicroProfileMetrics;
import dev.tollgate.telemetry.TollgateTelemetry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which reporting adapters become beans: those whose API the application sees, so a server with either
 * feature, both or neither deploys the application.
 */
class ReportingTest {

    @Test
    void bothAdaptersWhereBothApisAreVisible() {
        List<Reporting> on = Reporting.visible(getClass().getClassLoader());
        assertEquals(List.of("MicroProfile Metrics", "OpenTelemetry"), names(on));
        assertEquals(
                "Tollgate: decisions are reported through MicroProfile Metrics and OpenTelemetry",
                Reporting.described(on));
    }

    @Test
    void onlyMicroProfileMetricsWithoutOpenTelemetry() {
        assertEquals(List.of("MicroProfile Metrics"), names(Reporting.visible(hiding("io.opentelemetry."))));
    }

    @Test
    void onlyOpenTelemetryWithoutMicroProfileMetrics() {
        assertEquals(List.of("OpenTelemetry"), names(Reporting.visible(hiding("org.eclipse.microprofile.metrics."))));
    }

    @Test
    void noneWithNeitherAndTheLogSaysWhatWouldTurnThemOn() {
        List<Reporting> on = Reporting.visible(hiding("io.opentelemetry.", "org.eclipse.microprofile.metrics."));
        assertEquals(List.of(), on);
        assertTrue(Reporting.described(on).contains("apiTypeVisibility=\"+third-party\""), Reporting.described(on));
    }

    @Test
    void eachNamedAdapterIsAReporterThatOnlyTheExtensionMakesABean() {
        ClassLoader loader = getClass().getClassLoader();
        assertEquals(
                List.of(MicroProfileMetrics.class, TollgateTelemetry.class),
                Reporting.ADAPTERS.stream().map(a -> a.adapterClass(loader)).toList());
        for (Reporting a : Reporting.ADAPTERS) {
            Class<?> type = a.adapterClass(loader);
            assertTrue(Reporter.class.isAssignableFrom(type), a.adapter());
            // No scope of its own: annotated discovery would make it a bean where its API is missing.
            assertEquals(0, type.getAnnotations().length, a.adapter());
        }
    }

    private static List<String> names(List<Reporting> on) {
        return on.stream().map(Reporting::name).toList();
    }

    /** This class path without the packages {@code hidden}: a server without those features. */
    private static ClassLoader hiding(String... hidden) {
        return new ClassLoader(ReportingTest.class.getClassLoader()) {
            @Override
            protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
                for (String h : hidden) {
                    if (name.startsWith(h)) {
                        throw new ClassNotFoundException(name);
                    }
                }
                return super.loadClass(name, resolve);
            }
        };
    }
}
