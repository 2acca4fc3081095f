package dev.tollgate.cdi;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The reporting adapters and the API each needs the server to show the application: MicroProfile Metrics
 * ({@code mpMetrics}) and OpenTelemetry ({@code mpTelemetry} 2.x, with {@code apiTypeVisibility="+third-party"}).
 * An adapter whose API is not visible is not a bean, so the application deploys on either feature, both
 * or neither. Named, not referenced: an adapter's class must not be loaded where its API is missing.
 */
record Reporting(String name, String api, String adapter) {

    static final List<Reporting> ADAPTERS = List.of(
            new Reporting(
                    "MicroProfile Metrics",
                    "org.eclipse.microprofile.metrics.MetricRegistry",
                    "dev.tollgate.metrics.MicroProfileMetrics"),
            new Reporting(
                    "OpenTelemetry", "io.opentelemetry.api.OpenTelemetry", "dev.tollgate.telemetry.TollgateTelemetry"));

    /** The adapters whose API {@code loader} sees. */
    static List<Reporting> visible(ClassLoader loader) {
        return ADAPTERS.stream().filter(a -> a.visibleTo(loader)).toList();
    }

    /** The adapter's class, from {@code loader}. */
    Class<?> adapterClass(ClassLoader loader) {
        try {
            return Class.forName(adapter, false, loader);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("Tollgate's own adapter " + adapter + " is missing", e);
        }
    }

    /** The one line the deployment logs: where decisions are reported. */
    static String described(List<Reporting> on) {
        if (on.isEmpty()) {
            return "Tollgate: no metrics API is visible to the application (mpMetrics, or mpTelemetry with"
                    + " apiTypeVisibility=\"+third-party\"): decisions are not reported";
        }
        return "Tollgate: decisions are reported through "
                + on.stream().map(Reporting::name).collect(Collectors.joining(" and "));
    }

    private boolean visibleTo(ClassLoader loader) {
        try {
            Class.forName(api, false, loader);
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
