package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A user's WAR ({@code src/it/consumer}), built during the test run against the installed library jar
 * only, deployed to a Liberty server of its own with the README's {@code server.xml}: its own
 * {@code @RateLimited} resource, a limit checked from code through {@code RateLimits}, injected {@code
 * Counters}, a {@code @OncePerCluster} job, and a counter call to a frozen Redis answered 503.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@OwnServer
class ConsumerIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static final String SERVER = "consumer";
    static final Path WAR = Path.of("target", "it", "consumer", "target", "consumer.war");
    static final Path SERVER_XML = Path.of("src", "it", "consumer", "src", "main", "liberty", "config", "server.xml");
    static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    static ExtraServer server;
    static String base;

    @BeforeAll
    static void deploy() throws Exception {
        assertTrue(Files.exists(WAR), "the consumer WAR is built by the invoker before the ITs: " + WAR);
        // The WAR's own microprofile-config.properties names redis://localhost:6379; the test's Redis wins.
        server = ExtraServer.start(
                SERVER,
                WAR,
                SERVER_XML,
                List.of(
                        "-Dtollgate.redis.url=" + redis.url(),
                        // The IT servers' one budget policy (DemoDeployment): a budget a loaded 2-core
                        // machine meets, so a lock skipped as unavailable is a fault, not a slow turn.
                        "-Dtollgate.redis.timeout=2s"),
                Map.of());
        base = server.baseUrl();
        awaitStarted();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void warHoldsTheLibraryAndItsDependenciesButNoDemoAndNoLoggingBinding() throws IOException {
        List<String> libs = new ArrayList<>();
        try (ZipFile war = new ZipFile(WAR.toFile())) {
            Collections.list(war.entries()).stream()
                    .map(ZipEntry::getName)
                    .filter(n -> n.startsWith("WEB-INF/lib/") && n.endsWith(".jar"))
                    .map(n -> n.substring("WEB-INF/lib/".length()))
                    .forEach(libs::add);
            ZipEntry lib = libs.stream()
                    .filter(n -> n.startsWith("tollgate-") && n.endsWith("-lib.jar"))
                    .findFirst()
                    .map(n -> war.getEntry("WEB-INF/lib/" + n))
                    .orElse(null);
            assertNotNull(lib, "the library jar: " + libs);
            List<String> inLib = entries(new ZipInputStream(war.getInputStream(lib)));
            assertTrue(
                    inLib.contains("dev/tollgate/engine/Tollgate.class")
                            && inLib.contains("dev/tollgate/internal/engine/Engine.class"),
                    "the library's classes");
            assertFalse(
                    inLib.stream()
                            .anyMatch(n -> n.startsWith("dev/tollgate/demo/")
                                    || n.startsWith("dev/tollgate/internal/redis/HandWrittenEvalsha")),
                    "no demo classes");
            assertFalse(inLib.contains("META-INF/microprofile-config.properties"), "no demo settings");
        }
        assertTrue(libs.stream().anyMatch(n -> n.startsWith("jedis-")), libs.toString());
        assertTrue(libs.contains("commons-pool2-2.12.1.jar"), "the pin holds in a user's WAR: " + libs);
        assertTrue(libs.stream().anyMatch(n -> n.startsWith("slf4j-api-")), libs.toString());
        for (String binding : List.of("slf4j-jdk14", "slf4j-simple", "logback", "log4j-slf4j", "slf4j-reload4j")) {
            assertFalse(libs.stream().anyMatch(n -> n.startsWith(binding)), "no logging binding: " + libs);
        }
        assertFalse(
                libs.stream().anyMatch(n -> n.startsWith("jakarta.") || n.startsWith("microprofile-")),
                libs.toString());
    }

    @Test
    @Order(2)
    void rateLimitedResourceOfTheUsersOwnAnswers429() throws Exception {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = send("POST", "/orders");
            assertEquals(200, r.statusCode(), r.body());
            assertEquals(
                    "\"orders\";q=3;w=10800",
                    r.headers().firstValue("RateLimit-Policy").orElse(null));
        }
        HttpResponse<String> denied = send("POST", "/orders");
        assertEquals(429, denied.statusCode(), denied.body());
        assertTrue(
                denied.headers().firstValue("Retry-After").isPresent(),
                denied.headers().toString());
    }

    @Test
    @Order(3)
    void limitCheckedFromCodeThroughRateLimits() throws Exception {
        assertEquals(200, send("GET", "/orders/quote/alice").statusCode());
        assertEquals(200, send("GET", "/orders/quote/alice").statusCode());
        HttpResponse<String> denied = send("GET", "/orders/quote/alice");
        assertEquals(429, denied.statusCode(), denied.body());
        assertTrue(denied.body().contains("\"limit\":\"quotes\""), denied.body());
        assertEquals(200, send("GET", "/orders/quote/bob").statusCode(), "each customer has a bucket");
    }

    @Test
    @Order(4)
    void injectedCountersCountInRedis() throws Exception {
        long first = Long.parseLong(send("POST", "/orders/count").body().trim());
        assertEquals(
                first + 1, Long.parseLong(send("POST", "/orders/count").body().trim()));
        try (Jedis j = redis.admin()) {
            assertEquals(Long.toString(first + 1), j.get("tollgate:counter:{orders-today}"));
            assertTrue(j.pttl("tollgate:counter:{orders-today}") > 0, "the counter expires");
        }
    }

    @Test
    @Order(5)
    void oncePerClusterJobRunsOnceOfThreeStarts() throws Exception {
        int before = Integer.parseInt(send("GET", "/orders/export").body().trim());
        List<CompletableFuture<HttpResponse<String>>> starts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            starts.add(CLIENT.sendAsync(request("POST", "/orders/export"), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> s : starts) {
            assertEquals(200, s.get().statusCode());
        }
        assertEquals(
                before + 1,
                Integer.parseInt(send("GET", "/orders/export").body().trim()));
        String metrics = send("GET", "/metrics?scope=application").body();
        assertTrue(metrics.contains("tollgate_lock_acquired_total{lock=\"nightly-export\""), metrics);
        assertTrue(metrics.contains("tollgate_lock_held_elsewhere_total{lock=\"nightly-export\""), metrics);
    }

    @Test
    @Order(6)
    void readinessSaysOnlyUp() throws Exception {
        HttpResponse<String> r = send("GET", "/health/ready");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().replaceAll("\\s", "").contains("{\"name\":\"tollgate\",\"status\":\"UP\""), r.body());
        assertFalse(r.body().contains("redis") || r.body().contains("\"data\":{\""), r.body());
    }

    @Test
    @Order(7)
    void counterCallToAFrozenRedisAnswers503WithRetryAfterAndOneLineWarnings() throws Exception {
        redis.pause();
        try {
            for (int i = 0; i < 6; i++) {
                long start = System.nanoTime();
                HttpResponse<String> r = send("POST", "/orders/count");
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertEquals(503, r.statusCode(), r.body());
                assertEquals("1", r.headers().firstValue("Retry-After").orElse(null));
                // The budget (2 s) bounds every call; the slack is the loaded machine's, not Redis's.
                assertTrue(millis < 2_000 + 3_000, "call " + i + " took " + millis + " ms");
            }
        } finally {
            redis.resume();
        }
        List<String> log = server.log().lines().toList();
        long warnings = log.stream().filter(l -> l.contains("answered 503")).count();
        assertTrue(warnings >= 1 && warnings <= 3, "one line per call that waited, at most 3: " + warnings);
        assertFalse(log.stream().anyMatch(l -> l.contains("at redis.clients.")), "no stack trace in the log");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (send("POST", "/orders/count").statusCode() != 200) {
            assertTrue(System.nanoTime() < deadline, "counters came back within 10 s of Redis");
            Thread.sleep(100);
        }
    }

    private static HttpResponse<String> send(String method, String path) throws IOException, InterruptedException {
        return CLIENT.send(request(method, path), HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest request(String method, String path) {
        return HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10))
                .method(method, HttpRequest.BodyPublishers.noBody())
                .build();
    }

    private static List<String> entries(ZipInputStream in) throws IOException {
        List<String> names = new ArrayList<>();
        for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
            names.add(e.getName());
        }
        return names;
    }

    private static void awaitStarted() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(300);
        while (System.nanoTime() < deadline) {
            String log = server.log();
            if (log.contains("CWWKZ0002E")) {
                throw new AssertionError("the consumer application failed to start:\n" + log);
            }
            if (server.started()) {
                try {
                    // Readiness answers once the application runs; one quote builds the client and loads the script.
                    if (send("GET", "/health/ready").statusCode() == 200
                            && send("GET", "/orders/quote/warm-up").statusCode() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // the HTTP endpoint opens a moment after the application
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the consumer application did not start within 300 s:\n" + server.log());
    }
}
