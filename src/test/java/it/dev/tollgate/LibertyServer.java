package it.dev.tollgate;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.microshed.testing.jaxrs.RestClientBuilder;

/**
 * The Liberty servers the build started for the integration tests: where they are, their metrics and
 * log, and a raw HTTP client for the tests that need the bytes on the wire.
 */
public final class LibertyServer {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private static final Map<String, MetricsClient> METRICS = new ConcurrentHashMap<>();

    private LibertyServer() {}

    public static String baseUrl() {
        return "http://localhost:" + System.getProperty("it.http.port", "9080");
    }

    /** The second server: the same WAR, the same Redis. */
    public static String secondBaseUrl() {
        String port = System.getProperty("it.http.port2");
        if (port == null || port.isBlank()) {
            throw new IllegalStateException("it.http.port2 is not set: run the integration tests with mvn verify");
        }
        return "http://localhost:" + port;
    }

    /** The port of the Redis the servers were told to use; {@link DemoDeployment} starts it. */
    public static int redisPort() {
        String port = System.getProperty("it.redis.port");
        if (port == null || port.isBlank()) {
            throw new IllegalStateException("it.redis.port is not set: run the integration tests with mvn verify");
        }
        return Integer.parseInt(port);
    }

    /** A raw GET (java.net.http): for a test about what is on the wire, not about the service. */
    public static HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
        HttpRequest.Builder b =
                HttpRequest.newBuilder(URI.create(baseUrl() + path)).timeout(Duration.ofSeconds(10));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The application metrics of the first server, as Prometheus text. */
    public static String metrics() {
        return metrics(baseUrl());
    }

    /** The application metrics of the server at {@code baseUrl}, as Prometheus text. */
    public static synchronized String metrics(String baseUrl) {
        if (!METRICS.containsKey(baseUrl)) {
            firstScrape(baseUrl);
        }
        return METRICS.computeIfAbsent(baseUrl, url -> new RestClientBuilder()
                        .withAppContextRoot(url)
                        .withJaxrsPath("/")
                        .build(MetricsClient.class))
                .scrape("application");
    }

    /**
     * Asks {@code /metrics} of a server until it answers other than 500, three times at most: Open Liberty's
     * metrics servlet makes an HTTP session in its first request, which the session invalidator may end while
     * it is made, and that one request answers 500 (OpenLiberty/open-liberty#35488). No test should meet it.
     */
    static void firstScrape(String baseUrl) {
        HttpRequest scrape = HttpRequest.newBuilder(URI.create(baseUrl + "/metrics?scope=application"))
                .timeout(Duration.ofSeconds(10))
                .build();
        try {
            for (int i = 0; i < 3; i++) {
                if (CLIENT.send(scrape, HttpResponse.BodyHandlers.discarding()).statusCode() != 500) {
                    return;
                }
            }
        } catch (IOException e) {
            // the test's own scrape says what is wrong
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A Tollgate counter from {@code /metrics}, 0 when not yet registered. */
    public static long metric(String name, String limit, String outcome) {
        return metric(baseUrl(), name, limit, outcome);
    }

    /** As {@link #metric(String, String, String)}, of the server at {@code baseUrl}. */
    public static long metric(String baseUrl, String name, String limit, String outcome) {
        // Summed over the other tags (a degraded decision's cause is one): one line per cause.
        long sum = 0;
        for (String line : metrics(baseUrl).split("\n")) {
            if (line.startsWith(name + "{")
                    && line.contains("limit=\"" + limit + "\"")
                    && line.contains("outcome=\"" + outcome + "\"")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** A lock counter from {@code /metrics} (tagged by {@code lock}), 0 when not yet registered. */
    public static long lockMetric(String name, String lock) {
        for (String line : metrics().split("\n")) {
            if (line.startsWith(name + "{") && line.contains("lock=\"" + lock + "\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /** The server's messages.log lines. */
    public static List<String> log() throws IOException {
        return Files.readAllLines(Path.of(System.getProperty("it.server.log")));
    }
}
