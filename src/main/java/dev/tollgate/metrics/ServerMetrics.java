package dev.tollgate.metrics;

import dev.tollgate.internal.core.ServerCount;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * The gauge {@code tollgate_live_servers}: the servers sharing the limits as this one last counted them by
 * the live-servers heartbeat on Redis (kept through an outage; 1 in process): the {@code N} a local
 * fallback's share {@code capacity / N} divides by with {@code tollgate.local-fallback-servers=auto}.
 */
final class ServerMetrics {

    private ServerMetrics() {}

    /** Registers the gauge on {@code servers} in {@code registry}. */
    static void liveServersGauge(MetricRegistry registry, ServerCount servers) {
        registry.gauge("tollgate.live.servers", servers, s -> s.live());
    }
}
