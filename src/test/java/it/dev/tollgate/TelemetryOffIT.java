package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * The shared servers have both {@code mpMetrics-5.1} and {@code mpTelemetry-2.0} (the demo's {@code server.xml},
 * the OpenTelemetry API visible to the application), with {@code otel.sdk.disabled} left at Liberty's default
 * (the SDK off) though a {@code logging} exporter is chosen ({@code pom.xml}): the WAR deploys, decisions count
 * exactly on {@code /metrics}, OpenTelemetry exports nothing, and nothing warns or fails on its account.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@SharedServers
public class TelemetryOffIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @Test
    @Order(1)
    void bothAdaptersAreOnAndLibertySaysOpenTelemetryIsOff() throws Exception {
        List<String> log = LibertyServer.log();
        assertEquals(
                1,
                count(log, "Tollgate: decisions are reported through MicroProfile Metrics and OpenTelemetry"),
                "the application sees both APIs");
        assertTrue(
                log.stream().anyMatch(l -> l.contains("CWMOT5100I") && l.contains("the tollgate application")),
                "Liberty's SDK is off (otel.sdk.disabled defaults to true): " + String.join("\n", log));
    }

    @Test
    @Order(2)
    void decisionsCountExactlyOnMetrics() throws Exception {
        String user = "telemetry-off-" + UUID.randomUUID();
        long allowed = LibertyServer.metric("tollgate_decisions_total", "demo-user", "allowed");
        long denied = LibertyServer.metric("tollgate_decisions_total", "demo-user", "denied");
        // demo-user: 3 per hour per user name.
        for (int i = 0; i < 5; i++) {
            assertEquals(
                    i < 3 ? 200 : 429, LibertyServer.get("/demo/user/" + user).statusCode(), "call " + i);
        }
        assertEquals(allowed + 3, LibertyServer.metric("tollgate_decisions_total", "demo-user", "allowed"));
        assertEquals(denied + 2, LibertyServer.metric("tollgate_decisions_total", "demo-user", "denied"));
    }

    @Test
    @Order(3)
    void openTelemetryExportsNothingAndNothingWarnsOnItsAccount() throws Exception {
        List<String> log = LibertyServer.log();
        // The logging exporter writes each export to messages.log: a metric as "name=tollgate.…", a span as
        // "'GET /demo/…' : <trace> <span> SERVER".
        assertEquals(0, count(log, "name=tollgate."), "no metric exported: " + String.join("\n", log));
        assertEquals(0, count(log, " SERVER [tracer:"), "no span exported: " + String.join("\n", log));
        assertEquals(0, count(log, "tollgate.limit="), "no attribute of Tollgate's exported");
        // A warning or error about telemetry, or a stack frame of Tollgate's adapter or of OpenTelemetry itself.
        // Not Liberty's telemetry servlet filter: every request passes it, so it is in the stack trace of any
        // exception another IT provokes on purpose (seen in CI once the ITs ran in another order).
        List<String> complaints = log.stream()
                .filter(l -> {
                    String s = l.toLowerCase(Locale.ROOT);
                    boolean warning = (l.contains(" W ") || l.contains(" E "))
                            && (s.contains("telemetry") || s.contains("opentelemetry") || s.contains("cwmot"));
                    boolean frame =
                            l.startsWith("\tat dev.tollgate.telemetry.") || l.startsWith("\tat io.opentelemetry.");
                    return warning || frame;
                })
                .toList();
        assertEquals(List.of(), complaints, "nothing warns or fails on OpenTelemetry's account");
    }

    private static long count(List<String> log, String text) {
        return log.stream().filter(l -> l.contains(text)).count();
    }
}
