package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.Await;
import dev.tollgate.testing.RedisServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The user's WAR of {@code ConsumerIT} on the MicroProfile 7.1 platform ({@code microProfile-7.1}:
 * {@code mpTelemetry-2.1}, no {@code mpMetrics}), with the README's {@code server.xml} for it: it deploys,
 * and its decisions reach OpenTelemetry's exporter. The exporter is OpenTelemetry's {@code logging} one, so
 * the test reads what was exported from messages.log: cumulative sums every second, and each server span.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@OwnServer
class TelemetryIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static final Path SERVER_XML =
            Path.of("src", "it", "consumer", "src", "main", "liberty", "config", "server-microprofile-7.1.xml");
    static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();
    private static final Pattern POINT =
            Pattern.compile("[{ ](?:attributes|getAttributes)=\\{([^}]*)}, (?:value|getSum=[^,]*, getCount)=(\\d+)");

    static ExtraServer server;

    @BeforeAll
    static void deploy() throws Exception {
        server = ExtraServer.start(
                "telemetry",
                ConsumerIT.WAR,
                SERVER_XML,
                List.of(
                        "-Dtollgate.redis.url=" + redis.url(),
                        "-Dtollgate.redis.timeout=2s",
                        // Runtime-level OpenTelemetry (Liberty leaves the SDK off unless told), exported to
                        // the log every second for the test to read.
                        "-Dotel.sdk.disabled=false",
                        "-Dotel.metrics.exporter=logging",
                        "-Dotel.traces.exporter=logging",
                        "-Dotel.logs.exporter=none",
                        "-Dotel.metric.export.interval=1000"),
                Map.of());
        assertTrue(server.started(), "the consumer WAR deploys without mpMetrics:\n" + server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void deploysAndSaysWhereDecisionsAreReported() throws IOException {
        assertTrue(server.log().contains("Tollgate: decisions are reported through OpenTelemetry"), server.log());
        assertFalse(server.log().contains("WELD-001408"), server.log());
    }

    @Test
    @Order(2)
    void tenOrdersOfCapacityThreeExportThreeAllowedAndSevenDenied() throws Exception {
        for (int i = 0; i < 10; i++) {
            assertEquals(i < 3 ? 200 : 429, post("/orders").statusCode(), "order " + i);
        }
        Await.until(
                "ten decisions of 'orders' exported",
                () -> sum(exported("tollgate.rate_limiting.decisions", "tollgate.limit=\"orders\"")) == 10);
        Map<String, Long> points = exported("tollgate.rate_limiting.decisions", "tollgate.limit=\"orders\"");
        assertEquals(3L, value(points, "tollgate.result=\"allowed\""), points.toString());
        assertEquals(7L, value(points, "tollgate.result=\"denied\""), points.toString());
        assertEquals(
                10L,
                sum(exported("tollgate.rate_limiting.decision.duration", "tollgate.limit=\"orders\"")),
                "one check time per decision");
    }

    @Test
    @Order(3)
    void theServerSpanOfADeniedOrderCarriesTheDecisionAndOnlyTheClientsHash() throws IOException {
        Await.until("a server span with Tollgate's denial exported", () -> spanLines().stream()
                .anyMatch(l -> l.contains("tollgate.result=denied")));
        String span = spanLines().stream()
                .filter(l -> l.contains("tollgate.result=denied"))
                .findFirst()
                .orElseThrow();
        assertTrue(span.contains("SERVER"), span);
        assertTrue(span.contains("tollgate.limit=orders"), span);
        assertTrue(span.contains("tollgate.remaining=0"), span);
        assertTrue(
                Pattern.compile("tollgate\\.client\\.hash=[A-Za-z0-9_-]{22}[,}]")
                        .matcher(span)
                        .find(),
                span);
    }

    @Test
    @Order(4)
    void aFrozenRedisExportsDegradedDecisionsWithTheirCause() throws Exception {
        // A customer Redis has never seen: an exhausted key would be denied in the server, unasked.
        redis.pause();
        try {
            get("/orders/quote/frozen");
        } finally {
            redis.resume();
        }
        Await.until(
                "a degraded decision of 'quotes' exported",
                () -> sum(exported("tollgate.rate_limiting.degraded_decisions", "tollgate.limit=\"quotes\"")) >= 1);
        Map<String, Long> degraded = exported("tollgate.rate_limiting.degraded_decisions", "tollgate.limit=\"quotes\"");
        assertEquals(1L, value(degraded, "tollgate.degraded.cause=\"timeout\""), degraded.toString());
    }

    /** The last export of {@code metric}: each point's attributes (those holding {@code having}) to its value. */
    private static Map<String, Long> exported(String metric, String having) {
        String last = null;
        try {
            for (String line : server.log().split("\n")) {
                if (line.contains("name=" + metric + ",")) {
                    last = line;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Long> points = new HashMap<>();
        if (last != null) {
            Matcher m = POINT.matcher(last);
            while (m.find()) {
                if (m.group(1).contains(having)) {
                    points.put(m.group(1), Long.parseLong(m.group(2)));
                }
            }
        }
        return points;
    }

    private static long value(Map<String, Long> points, String attribute) {
        return points.entrySet().stream()
                .filter(e -> e.getKey().contains(attribute))
                .mapToLong(Map.Entry::getValue)
                .sum();
    }

    private static long sum(Map<String, Long> points) {
        return points.values().stream().mapToLong(Long::longValue).sum();
    }

    private static List<String> spanLines() {
        try {
            return server.log()
                    .lines()
                    .filter(l -> l.contains("tollgate.limit="))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
    }

    private static HttpResponse<String> post(String path) throws IOException, InterruptedException {
        HttpRequest r = HttpRequest.newBuilder(URI.create(server.baseUrl() + path))
                .timeout(Duration.ofSeconds(10))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return CLIENT.send(r, HttpResponse.BodyHandlers.ofString());
    }
}
