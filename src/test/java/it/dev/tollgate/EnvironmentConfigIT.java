package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;

/**
 * Every setting given as an environment variable, the way containers configure servers, on a Liberty
 * server of its own (its {@code server.env}) with a Redis of its own. Hyphenated limit names
 * ({@code demo-window}) and hyphenated settings ({@code FAIL_OPEN}, {@code REFILL_PERIOD}) included.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@OwnServer
class EnvironmentConfigIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static ExtraServer server;

    @BeforeAll
    static void start() throws Exception {
        Map<String, String> env = new TreeMap<>();
        env.put("TOLLGATE_REDIS_URL", "redis://" + redis.host() + ":" + redis.port());
        env.put("TOLLGATE_REDIS_TIMEOUT", "2s");
        env.put("TOLLGATE_REDIS_POOL_SIZE", "3");
        env.put("TOLLGATE_FAIL_OPEN", "false");
        env.put("TOLLGATE_HTTP_LIMITS", "demo-window");
        env.put("TOLLGATE_HTTP_TRUSTED_PROXIES", "127.0.0.1/32");
        env.put("TOLLGATE_HTTP_CLIENT_HEADER", "X-Forwarded-For");
        env.put("TOLLGATE_HTTP_IPV6_PREFIX", "32");
        // The WAR's own properties enable the operator resource; the environment turns it off.
        env.put("TOLLGATE_ADMIN_ENABLED", "false");
        // The case: a limit setting with a hyphen, beside one that always worked.
        env.put("TOLLGATE_LIMITS_DEMO_FAIL_OPEN", "false");
        env.put("TOLLGATE_LIMITS_DEMO_REFILL_TOKENS", "0");
        env.put("TOLLGATE_LIMITS_DEMO_CAPACITY", "3");
        env.put("TOLLGATE_LIMITS_DEMO_PERSIST", "true");
        env.put("TOLLGATE_LIMITS_DEMO_WINDOW_ALGORITHM", "fixed-window");
        env.put("TOLLGATE_LIMITS_DEMO_WINDOW_CAPACITY", "50");
        env.put("TOLLGATE_LIMITS_DEMO_WINDOW_REFILL_PERIOD", "1h");
        env.put("TOLLGATE_LIMITS_DEMO_WINDOW_FAIL_OPEN", "true");
        env.put("TOLLGATE_LIMITS_DEMO_BOTH_CAPACITY", "4");
        env.put("TOLLGATE_LIMITS_DEMO_BOTH_REFILL_TOKENS", "0");
        env.put("TOLLGATE_LIMITS_DEMO_BOTH_PERSIST", "true");
        env.put("TOLLGATE_LIMITS_DEMO_BOTH_COST", "2");
        env.put("TOLLGATE_LIMITS_DEMO_BOTH_KEY", "header:X-Api-Key");
        env.put("TOLLGATE_LOCKS_DEMO_REPORT_TTL", "45s");
        env.put("TOLLGATE_LOCKS_DEMO_REPORT_AT_LEAST", "20s");
        // Kubernetes' service links for a service named tollgate are not Tollgate's settings.
        env.put("TOLLGATE_SERVICE_HOST", "10.96.0.12");
        env.put("TOLLGATE_PORT_9080_TCP_ADDR", "10.96.0.12");
        env.put("TOLLGATE_TEST_REDIS_BACKEND", "binary"); // the test harness's, as CI exports it
        server = ExtraServer.start("envconfig", List.of(), env);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void theServerStartsWithTheSettingsTheEnvironmentGave() throws Exception {
        assertTrue(server.started(), server.log());
        assertTrue(
                server.log()
                        .contains("Tollgate: limits, locks and counters are shared through Redis at redis://"
                                + redis.host() + ":" + redis.port()
                                + " (budget 2000 ms per call, at most 3 connections; 28 limits: [demo, demo-both,"
                                + " demo-cdi, demo-charge, demo-class, demo-ejb, demo-export, demo-export-window, demo-free,"
                                + " demo-leased, demo-login, demo-metered, demo-monthly, demo-multi-burst, demo-multi-day, demo-paid, demo-partner, demo-partner-api,"
                                + " demo-plan, demo-plan-free, demo-plan-pro, demo-reload, demo-settle, demo-shadow,"
                                + " demo-tenant, demo-user, demo-window, tollgate-pacing])"),
                "no limit named demo_window or demo.fail.open beside the real ones:\n"
                        + server.log()
                                .lines()
                                .filter(l -> l.contains("Tollgate"))
                                .collect(java.util.stream.Collectors.joining("\n")));
    }

    @Test
    @Order(2)
    void aQuotaThatNeverRefills() throws Exception {
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i < 4; i++) {
            last = server.get("/demo/hello", "X-Forwarded-For", "10.30.0.1");
            statuses.add(last.statusCode());
        }
        assertEquals(List.of(200, 200, 200, 429), statuses);
        assertTrue(
                last.headers().firstValue("RateLimit-Policy").orElseThrow().contains("\"demo\";q=3"),
                last.headers().map().toString());
        assertFalse(last.headers().firstValue("Retry-After").isPresent(), "refill-tokens=0: nothing to wait for");
    }

    @Test
    @Order(3)
    void aHyphenatedLimitTakesItsAlgorithmWindowAndCapacity() throws Exception {
        HttpResponse<String> r = server.get("/demo/window", "X-Forwarded-For", "10.30.1.1");
        assertEquals(200, r.statusCode());
        assertEquals(
                "\"demo-window\";q=50;w=3600",
                r.headers().firstValue("RateLimit-Policy").orElseThrow());
        try (Jedis admin = redis.admin()) {
            List<String> types = keys(admin, "*demo-window*").stream()
                    .map(admin::type)
                    .distinct()
                    .toList();
            assertEquals(List.of("hash"), types, "a fixed window is a hash; a sliding window would be a zset");
        }
    }

    @Test
    @Order(4)
    void keyAndCost() throws Exception {
        assertEquals(
                List.of(200, 200, 429, 200),
                List.of(
                        server.get("/demo/both", "X-Api-Key", "a").statusCode(),
                        server.get("/demo/both", "X-Api-Key", "a").statusCode(),
                        server.get("/demo/both", "X-Api-Key", "a").statusCode(),
                        server.get("/demo/both", "X-Api-Key", "b").statusCode()));
    }

    @Test
    @Order(5)
    void theFilterAppliesTheGlobalLimitsTheEnvironmentNames() throws Exception {
        HttpResponse<String> r = server.get("/demo/unlimited", "X-Forwarded-For", "10.30.2.1");
        assertEquals(200, r.statusCode());
        assertTrue(
                r.headers().firstValue("RateLimit-Policy").orElse("").startsWith("\"demo-window\""),
                r.headers().map().toString());
    }

    @Test
    @Order(6)
    void clientHeaderTrustedProxiesAndIpv6Prefix() throws Exception {
        // /32 from TOLLGATE_HTTP_IPV6_PREFIX: two /64s of one /32 share a bucket; a /64 would not.
        assertEquals(
                List.of(2, 1),
                List.of(
                        remaining(server.get("/demo/hello", "X-Forwarded-For", "198.51.100.1, 2001:db8:1::1")),
                        remaining(server.get("/demo/hello", "X-Forwarded-For", "2001:db8:2::1"))));
    }

    @Test
    @Order(7)
    void lockTtlAndAtLeast() throws Exception {
        try (Jedis admin = redis.admin()) {
            long held = 0;
            CompletableFuture<HttpResponse<String>> post = server.postAsync("/demo/job");
            while (!post.isDone()) {
                for (String k : keys(admin, "*lock*demo-report*")) {
                    held = Math.max(held, admin.pttl(k));
                }
                Thread.sleep(5);
            }
            assertEquals(200, post.get().statusCode());
            assertTrue(held > 30_000 && held <= 45_000, "ttl 45s, not the annotation's 30s: " + held);
            long after = keys(admin, "*lock*demo-report*").stream()
                    .mapToLong(admin::pttl)
                    .max()
                    .orElse(-2);
            assertTrue(after > 10_000 && after <= 20_000, "held at least 20s after the job: " + after);
        }
    }

    @Test
    @Order(8)
    void failOpenPerLimitAndGlobalWhenRedisIsGone() throws Exception {
        redis.kill();
        assertEquals(
                503, server.get("/demo/hello", "X-Forwarded-For", "10.30.3.1").statusCode(), "demo: fail-open=false");
        assertEquals(
                200, server.get("/demo/window", "X-Forwarded-For", "10.30.3.1").statusCode(), "demo-window: true");
        assertEquals(503, server.get("/demo/both", "X-Api-Key", "c").statusCode(), "demo-both: TOLLGATE_FAIL_OPEN");
    }

    private static final Pattern REMAINING = Pattern.compile("\"demo\";r=(\\d+)");

    private static int remaining(HttpResponse<String> r) {
        Matcher m = REMAINING.matcher(r.headers().firstValue("RateLimit").orElse(""));
        if (!m.find()) {
            throw new AssertionError(
                    "no RateLimit field: " + r.statusCode() + " " + r.headers().map());
        }
        return Integer.parseInt(m.group(1));
    }

    /**
     * With the operator resource disabled, nothing on its paths answers but 404, whatever the method: JAX-RS
     * answered {@code OPTIONS} itself (200 and an {@code Allow} list) while the resource said 404.
     */
    @Test
    void everyMethodOnTheOperatorPathsAnswers404WhileTheOperatorResourceIsDisabled() throws Exception {
        for (String path : List.of(
                "/tollgate/admin/state",
                "/tollgate/admin/limits/demo/clients?client=x",
                "/tollgate/admin/limits/demo/block?client=x&for=1m",
                "/tollgate/admin/locks",
                "/tollgate/admin/locks/demo-report",
                "/tollgate/admin/console",
                "/tollgate/console",
                "//tollgate/admin/state",
                "/tollgate/admin/state/",
                "/tollgate;x=1/admin/state")) {
            for (String method : List.of("GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE")) {
                for (String credentials : java.util.Arrays.asList(null, AdminHttp.OPERATOR)) {
                    HttpResponse<String> r = AdminHttp.send(server.baseUrl(), method, path, credentials);
                    assertEquals(404, r.statusCode(), method + " " + path + ": " + r.headers() + " " + r.body());
                    assertTrue(r.headers().firstValue("Allow").isEmpty(), method + " " + path + ": " + r.headers());
                }
            }
        }
    }

    private static List<String> keys(Jedis admin, String pattern) {
        List<String> out = new ArrayList<>();
        String cursor = ScanParams.SCAN_POINTER_START;
        do {
            var page = admin.scan(cursor, new ScanParams().match(pattern).count(1000));
            out.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        return out;
    }
}
