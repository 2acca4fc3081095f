package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TcpLink;
import java.net.http.HttpResponse;
import java.util.EnumMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Why a decision is degraded, through Liberty and MicroProfile Fault Tolerance's breaker, on a server and
 * a Redis of this class's own (Tollgate connects as ACL user {@code tollgate}, through a {@link TcpLink}):
 * errors Redis answers with, then a link that stops answering. A key of the wrong type degrades its own
 * calls ({@code cause="data-error"}), refused credentials degrade every call ({@code cause="auth"}, an
 * ERROR, readiness says so), and neither opens the breaker. Through a frozen link and a link slower than
 * the budget exactly the threshold's checks fail as outages (counted by cause), then the breaker answers; a fail-closed limit of
 * the JAX-RS filter answers 503 with {@code Retry-After: 1}; a limit with a local fallback is decided by
 * the server's own bucket meanwhile and by Redis again once the probe finds it answering.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Alone
class DegradedCausesIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static ExtraServer server;
    static TcpLink link;

    @BeforeAll
    static void start() throws Exception {
        try (Jedis j = redis.admin()) {
            j.aclSetUser("tollgate", "on", ">s3cret", "~*", "+@all");
        }
        link = new TcpLink(redis.port());
        server = ExtraServer.start(
                "causes",
                java.util.List.of(),
                Map.of(
                        "TOLLGATE_REDIS_URL",
                        "redis://tollgate:s3cret@127.0.0.1:" + link.port(),
                        "TOLLGATE_REDIS_TIMEOUT",
                        BUDGET_MILLIS + "ms",
                        // Fewer than the default 3: each outage below shows the setting reaches Fault Tolerance.
                        "TOLLGATE_BREAKER_FAILURES",
                        Integer.toString(THRESHOLD),
                        // GET /demo/window, a limit of the JAX-RS filter, fails closed here.
                        "TOLLGATE_LIMITS_DEMO_WINDOW_FAIL_OPEN",
                        "false",
                        // GET /demo/reload (2 per hour per address): this server's own bucket while Redis is away.
                        "TOLLGATE_LIMITS_DEMO_RELOAD_LOCAL_FALLBACK",
                        "true"));
        assertTrue(server.started(), server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (link != null) {
                link.close();
            }
        }
    }

    /** This server's {@code tollgate.redis.timeout}: MicroProfile Fault Tolerance's {@code @Timeout}. */
    static final long BUDGET_MILLIS = 2000;
    /**
     * This server's {@code tollgate.breaker.failures}, Fault Tolerance's {@code requestVolumeThreshold}: 2
     * failed calls in a row open the breaker (the default is 3).
     */
    static final int THRESHOLD = 2;

    @Test
    @Order(1)
    void aKeyOfTheWrongTypeDegradesItsOwnCallsOnly() throws Exception {
        try (Jedis j = redis.admin()) {
            j.rpush(StoreKeys.DEFAULT.of("demo-user", "mallory"), "written by someone else");
        }
        for (int i = 0; i < 5; i++) {
            assertEquals(200, server.get("/demo/user/mallory").statusCode(), "fail-open, call " + i);
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(200, server.get("/demo/user/alice").statusCode(), "alice's calls are decided by Redis");
        }
        assertEquals(429, server.get("/demo/user/alice").statusCode(), "exact: demo-user allows 3 per minute");
        assertEquals(5, metric("tollgate_degraded_decisions_total", "demo-user", "allowed", "data-error"));
        assertEquals(0, metric("tollgate_breaker_open", null, null, null), "5 data errors in a row: breaker closed");
        assertEquals(1, logLines("limit 'demo-user': Redis answered a call on"), "once per limit per minute");
    }

    @Test
    @Order(2)
    void refusedCredentialsDegradeEveryCallWithoutOpeningTheBreaker() throws Exception {
        try (Jedis j = redis.admin()) {
            j.aclSetUser("tollgate", "resetpass", ">rotated");
            j.clientKill(new redis.clients.jedis.params.ClientKillParams().user("tollgate"));
        }
        for (int i = 0; i < 6; i++) {
            assertEquals(
                    200,
                    server.get("/demo/hello", "X-Forwarded-For", "10.42.0." + i).statusCode());
        }
        Map<DegradedCause, Long> causes = causes("demo");
        System.out.println("DegradedCausesIT: refused credentials, by cause " + causes);
        long auth = causes.get(DegradedCause.AUTH);
        assertTrue(auth >= 5, "degraded with cause auth: " + auth + "\n" + metrics());
        // Every call degraded: refused credentials, or (a call on a connection the kill broke) refused.
        assertEquals(6, auth + causes.get(DegradedCause.REFUSED), "each call degraded, none other: " + causes);
        assertEquals(0, metric("tollgate_breaker_open", null, null, null), "refused credentials are not an outage");
        String console = operatorConsole();
        assertTrue(console.contains("\"authFailure\":\"") && console.contains("WRONGPASS"), console);
        assertFalse(server.get("/health/ready").body().contains("WRONGPASS"), "readiness says only UP");
        assertEquals(1, logLines("refuses Tollgate's credentials or permissions"), "one ERROR while it lasts");
        assertTrue(
                server.log()
                        .lines()
                        .filter(l -> l.contains("refuses Tollgate's credentials"))
                        .allMatch(l -> l.contains(" E ") && !l.contains("s3cret") && !l.contains("rotated")),
                "an ERROR, no password");
    }

    @Test
    @Order(3)
    void fixedCredentialsWorkAtOnce() throws Exception {
        try (Jedis j = redis.admin()) {
            j.aclSetUser("tollgate", ">s3cret");
        }
        long before = metric("tollgate_decisions_total", "demo", "allowed", null);
        assertEquals(
                200, server.get("/demo/hello", "X-Forwarded-For", "10.42.1.1").statusCode());
        assertEquals(before + 1, metric("tollgate_decisions_total", "demo", "allowed", null), "decided by Redis");
        assertTrue(operatorConsole().contains("\"authFailure\":null"), operatorConsole());
        assertEquals(1, logLines("accepts Tollgate's credentials again"));
    }

    @Test
    @Order(4)
    void frozenLinkHoldsAtMostTheThresholdsChecksAndAFailClosedFilterLimitAnswers503() throws Exception {
        awaitBreaker(false);
        assertTrue(Timed.get("/demo/hello").decidedByRedis(), "decided by Redis before the link froze");
        long decided = metric("tollgate_decisions_total", "demo", null, null);
        long degraded = metric("tollgate_degraded_decisions_total", "demo", "allowed", null);
        long checks = metric("tollgate_check_seconds_count", "demo", null, null);
        Map<DegradedCause, Long> causesBefore = causes("demo");
        int paid = 0;
        link.freeze();
        try {
            for (int i = 0; i < 10; i++) {
                Timed t = Timed.get("/demo/hello");
                assertEquals(200, t.reply().statusCode(), "fail-open through a frozen link, call " + i);
                assertFalse(t.decidedByRedis(), "a degraded pass claims no remaining count");
                assertTrue(t.millis() < 2 * BUDGET_MILLIS, "call " + i + " within 2x the budget: " + t.millis());
                if (i == 0) {
                    assertTrue(t.millis() >= BUDGET_MILLIS / 2, "the first call waited for the budget: " + t.millis());
                }
                paid += t.millis() >= BUDGET_MILLIS / 2 ? 1 : 0;
            }
            assertEquals(1, metric("tollgate_breaker_open", null, null, null), "the breaker opened");
            assertEquals(10, metric("tollgate_degraded_decisions_total", "demo", "allowed", null) - degraded);
            assertThresholdThenBreaker(causesBefore, paid);
            assertEquals(decided, metric("tollgate_decisions_total", "demo", null, null), "none decided by Redis");
            assertEquals(10, metric("tollgate_check_seconds_count", "demo", null, null) - checks, "each check timed");

            long closedBefore = metric("tollgate_degraded_decisions_total", "demo-window", "denied", "breaker-open");
            Timed closed = Timed.get("/demo/window");
            assertEquals(
                    503,
                    closed.reply().statusCode(),
                    "the filter's fail-closed limit: " + closed.reply().body());
            assertEquals("1", closed.reply().headers().firstValue("Retry-After").orElseThrow());
            assertTrue(closed.millis() < BUDGET_MILLIS / 2, "refused by the open breaker at once: " + closed.millis());
            assertEquals(
                    closedBefore + 1,
                    metric("tollgate_degraded_decisions_total", "demo-window", "denied", "breaker-open"));
        } finally {
            link.unfreeze();
        }
        awaitBreaker(false);
        assertTrue(Timed.get("/demo/hello").decidedByRedis(), "Redis decides again");
        assertEquals(200, Timed.get("/demo/window").reply().statusCode(), "the fail-closed limit admits again");
    }

    @Test
    @Order(5)
    void slowLinkIsWaitedForWithinTheBudgetAndDegradesBeyondIt() throws Exception {
        awaitBreaker(false);
        long decided = metric("tollgate_decisions_total", "demo", null, null);
        link.slow(500);
        try {
            Timed t = Timed.get("/demo/hello");
            assertEquals(200, t.reply().statusCode());
            assertTrue(t.decidedByRedis(), "500 ms is within the 2 s budget: Redis decides");
            assertTrue(t.millis() >= 500, "the call waited for the slow reply: " + t.millis());
            assertEquals(decided + 1, metric("tollgate_decisions_total", "demo", null, null));
            assertEquals(0, metric("tollgate_breaker_open", null, null, null));

            long degraded = metric("tollgate_degraded_decisions_total", "demo", "allowed", null);
            Map<DegradedCause, Long> causesBefore = causes("demo");
            link.slow(BUDGET_MILLIS + 1000);
            int paid = 0;
            for (int i = 0; i < 10; i++) {
                Timed s = Timed.get("/demo/hello");
                assertEquals(200, s.reply().statusCode(), "fail-open, call " + i);
                assertFalse(s.decidedByRedis(), "call " + i + " is degraded");
                assertTrue(s.millis() < 2 * BUDGET_MILLIS, "call " + i + " within 2x the budget: " + s.millis());
                if (i == 0) {
                    assertTrue(s.millis() >= BUDGET_MILLIS / 2, "the first call waited for the budget: " + s.millis());
                }
                paid += s.millis() >= BUDGET_MILLIS / 2 ? 1 : 0;
            }
            assertEquals(10, metric("tollgate_degraded_decisions_total", "demo", "allowed", null) - degraded);
            assertEquals(1, metric("tollgate_breaker_open", null, null, null), "the breaker opened");
            assertThresholdThenBreaker(causesBefore, paid);
        } finally {
            link.fast();
        }
        awaitBreaker(false);
        assertTrue(Timed.get("/demo/hello").decidedByRedis(), "Redis decides again");
    }

    /** Issue 13's local fallback through Liberty: {@code demo-reload} is 2 per hour per address. */
    @Test
    @Order(6)
    void localFallbackDecidesWhileTheLinkIsFrozenAndRedisDecidesAgainOnceItAnswers() throws Exception {
        awaitBreaker(false);
        Timed first = Timed.get("/demo/reload");
        assertEquals(1, first.remaining(), "Redis spent one of the address's 2");
        long redisAllowed = metric("tollgate_decisions_total", "demo-reload", "allowed", null);
        link.freeze();
        try {
            for (int i = 0; i < 10 && metric("tollgate_breaker_open", null, null, null) == 0; i++) {
                assertEquals(200, Timed.get("/demo/hello").reply().statusCode(), "fail-open opens the breaker");
            }
            assertEquals(1, metric("tollgate_breaker_open", null, null, null), "the frozen link opened the breaker");
            for (int i = 0; i < 2; i++) {
                assertEquals(200, Timed.get("/demo/reload").reply().statusCode(), "the local bucket's token " + i);
            }
            for (int i = 0; i < 2; i++) {
                Timed denied = Timed.get("/demo/reload");
                assertEquals(429, denied.reply().statusCode(), "the local bucket of 2 is spent: " + i);
                long retry = Long.parseLong(
                        denied.reply().headers().firstValue("Retry-After").orElseThrow());
                assertTrue(retry > 1 && retry <= 1800, "the local bucket's time to its next token: " + retry);
            }
            assertEquals(2, metric("tollgate_local_fallback_decisions_total", "demo-reload", "allowed", null));
            assertEquals(2, metric("tollgate_local_fallback_decisions_total", "demo-reload", "denied", null));
            assertEquals(
                    2,
                    metric("tollgate_degraded_decisions_total", "demo-reload", "allowed", "breaker-open"),
                    metrics());
            assertEquals(2, metric("tollgate_degraded_decisions_total", "demo-reload", "denied", "breaker-open"));
            assertEquals(4, metric("tollgate_degraded_decisions_total", "demo-reload", null, null), "no other cause");
            assertEquals(redisAllowed, metric("tollgate_decisions_total", "demo-reload", "allowed", null));
        } finally {
            link.unfreeze();
        }
        awaitBreaker(false);
        Timed back = Timed.get("/demo/reload");
        assertEquals(200, back.reply().statusCode(), "the spent local bucket would deny: Redis decides again");
        assertEquals(0, back.remaining(), "Redis's count, untouched by the local spends");
        assertEquals(redisAllowed + 1, metric("tollgate_decisions_total", "demo-reload", "allowed", null));
        assertEquals(2, metric("tollgate_local_fallback_decisions_total", "demo-reload", "allowed", null));
    }

    /**
     * Counted by cause, not timed (as {@code RedisOutageTest}): of the 10 checks since {@code before},
     * exactly the threshold's failed as outages (timed out, or refused at once: a new connection through
     * a frozen link may be), then the open breaker answered the other 8 without asking Redis; the checks
     * that waited are the ones that timed out.
     */
    private static void assertThresholdThenBreaker(Map<DegradedCause, Long> before, int paid) throws Exception {
        Map<DegradedCause, Long> since = causes("demo");
        since.replaceAll((cause, n) -> n - before.get(cause));
        System.out.println("DegradedCausesIT: 10 checks by cause " + since + ", " + paid + " waited");
        assertEquals(
                THRESHOLD,
                since.get(DegradedCause.TIMEOUT) + since.get(DegradedCause.REFUSED),
                "the threshold's checks failed as outages: " + since);
        assertEquals(10 - THRESHOLD, since.get(DegradedCause.BREAKER_OPEN), "then the breaker answered: " + since);
        assertEquals(since.get(DegradedCause.TIMEOUT), paid, "the timed-out checks waited, no other: " + since);
    }

    /** {@code limit}'s degraded decisions by cause, as its metrics count them. */
    private static Map<DegradedCause, Long> causes(String limit) throws Exception {
        String text = metrics();
        Map<DegradedCause, Long> causes = new EnumMap<>(DegradedCause.class);
        for (DegradedCause cause : DegradedCause.values()) {
            causes.put(cause, metric(text, "tollgate_degraded_decisions_total", limit, null, cause.tag()));
        }
        return causes;
    }

    /** The operator's console data: the breaker and Redis's refusal, which readiness no longer shows. */
    private static String operatorConsole() throws Exception {
        return AdminHttp.send(server.baseUrl(), "GET", "/tollgate/admin/console", AdminHttp.OPERATOR)
                .body();
    }

    private static String metrics() throws Exception {
        return server.get("/metrics?scope=application").body();
    }

    /** A counter or gauge, summed over the lines of its tags (null: any); 0 when not registered. */
    private static long metric(String name, String limit, String outcome, String cause) throws Exception {
        return metric(metrics(), name, limit, outcome, cause);
    }

    /** A counter or gauge of the metrics {@code text}, summed over the lines of its tags (null: any). */
    private static long metric(String text, String name, String limit, String outcome, String cause) {
        long sum = 0;
        for (String line : text.split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " "))
                    && (limit == null || line.contains("limit=\"" + limit + "\""))
                    && (outcome == null || line.contains("outcome=\"" + outcome + "\""))
                    && (cause == null || line.contains("cause=\"" + cause + "\""))) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** Waits up to 10 s for this server's breaker gauge to say {@code open} (or closed). */
    private static void awaitBreaker(boolean open) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while ((metric("tollgate_breaker_open", null, null, null) == 1) != open) {
            assertTrue(
                    System.nanoTime() < deadline, "breaker did not become " + (open ? "open" : "closed") + " in 10 s");
            Thread.sleep(50);
        }
    }

    /** {@code GET path} timed: the reply and how many milliseconds it took. */
    private record Timed(HttpResponse<String> reply, long millis) {
        static Timed get(String path) throws Exception {
            long start = System.nanoTime();
            HttpResponse<String> r = server.get(path);
            return new Timed(r, (System.nanoTime() - start) / 1_000_000);
        }

        boolean decidedByRedis() {
            return reply.headers().firstValue("RateLimit").isPresent();
        }

        /** The {@code r} of the {@code RateLimit} field ({@code "demo-reload";r=1;t=1800}). */
        long remaining() {
            String field = reply.headers().firstValue("RateLimit").orElseThrow();
            for (String part : field.split(";")) {
                if (part.startsWith("r=")) {
                    return Long.parseLong(part.substring(2));
                }
            }
            throw new AssertionError("no r in " + field);
        }
    }

    private static long logLines(String text) throws Exception {
        return server.log().lines().filter(l -> l.contains(text)).count();
    }
}
