package it.dev.tollgate;

import static it.dev.tollgate.AdminHttp.OPERATOR;
import static it.dev.tollgate.AdminHttp.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * Operating Tollgate through two real Liberty servers on one Redis: the admin resource behind Liberty's
 * security (401, 403, 200), a peek and a reset on one server that ends the denial the other holds, the
 * audit line, the console page, a shadow limit that never denies, and a flood that costs Redis nothing.
 * Raw HTTP: the challenge, the credentials and the methods on the wire are what is tested.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class OperateIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    private static HttpResponse<String> get(String base, String path, String credentials) throws Exception {
        return send(base, "GET", path, credentials);
    }

    /**
     * No page of another origin can frame the console (or an operator answer) to trick an operator's
     * clicks: {@code frame-ancestors 'none'} and {@code X-Frame-Options: DENY} on every operator answer,
     * refusals included.
     */
    @Test
    void operatorAnswersCannotBeFramed() throws Exception {
        String base = LibertyServer.baseUrl();
        for (String path : java.util.List.of(
                "/tollgate/console", "/tollgate/admin/state", "/tollgate/admin/console", "/tollgate/admin/locks")) {
            for (String credentials : java.util.Arrays.asList(OPERATOR, AdminHttp.VIEWER, null)) {
                HttpResponse<String> r = get(base, path, credentials);
                String what = path + " as " + credentials + ": " + r.statusCode() + " " + r.headers();
                assertEquals(
                        OPERATOR.equals(credentials) ? 200 : credentials == null ? 401 : 403, r.statusCode(), what);
                assertEquals("DENY", r.headers().firstValue("X-Frame-Options").orElse(null), what);
                assertTrue(
                        r.headers()
                                .firstValue("Content-Security-Policy")
                                .orElse("")
                                .contains("frame-ancestors 'none'"),
                        what);
            }
        }
        String page = get(base, "/tollgate/console", OPERATOR)
                .headers()
                .firstValue("Content-Security-Policy")
                .orElse("");
        assertTrue(page.contains("script-src 'unsafe-inline'") && page.contains("connect-src 'self'"), page);
    }

    @Test
    void theAdminResourceAnswersOnlyAnOperator() throws Exception {
        String base = LibertyServer.baseUrl();
        HttpResponse<String> anonymous = get(base, "/tollgate/admin/state", null);
        assertEquals(401, anonymous.statusCode(), anonymous.body());
        assertTrue(anonymous.headers().firstValue("WWW-Authenticate").orElse("").startsWith("Basic"));
        assertEquals(401, get(base, "/tollgate/admin/state", "operator:wrong").statusCode());
        HttpResponse<String> viewer = get(base, "/tollgate/admin/state", "viewer:viewer-demo");
        assertEquals(403, viewer.statusCode(), viewer.body());
        assertEquals(
                403,
                send(base, "DELETE", "/tollgate/admin/limits/demo/clients?client=x", "viewer:viewer-demo")
                        .statusCode());
        HttpResponse<String> state = get(base, "/tollgate/admin/state", OPERATOR);
        assertEquals(200, state.statusCode(), state.body());
        assertTrue(state.body().contains("\"store\":\"redis\""), state.body());
        assertTrue(state.body().contains("\"name\":\"demo-shadow\""), state.body());
        assertTrue(state.body().contains("\"mode\":\"shadow\""), state.body());
        assertEquals(
                404,
                get(base, "/tollgate/admin/limits/nope/peek?client=x", OPERATOR).statusCode());
        assertEquals(
                400, get(base, "/tollgate/admin/limits/demo/peek", OPERATOR).statusCode());
    }

    @Test
    void aResetOnOneServerEndsTheDenialTheOtherHolds() throws Exception {
        String first = LibertyServer.baseUrl();
        String second = LibertyServer.secondBaseUrl();
        String user = "reset-" + System.nanoTime();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, get(first, "/demo/user/" + user, null).statusCode());
        }
        assertEquals(429, get(first, "/demo/user/" + user, null).statusCode());
        assertEquals(429, get(second, "/demo/user/" + user, null).statusCode(), "held on the second server now");
        HttpResponse<String> peek = get(first, "/tollgate/admin/limits/demo-user/peek?client=" + user, OPERATOR);
        assertEquals(200, peek.statusCode(), peek.body());
        assertTrue(peek.body().contains("\"wouldAllow\":false,\"remaining\":0"), peek.body());

        HttpResponse<String> reset =
                send(first, "DELETE", "/tollgate/admin/limits/demo-user/clients?client=" + user, OPERATOR);
        assertEquals(200, reset.statusCode(), reset.body());
        String hash = StoreKeys.clientHash(user);
        assertEquals("{\"limit\":\"demo-user\",\"client\":\"" + hash + "\",\"reset\":true}", reset.body());

        int status = 429;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (status == 429 && System.nanoTime() < deadline) {
            status = get(second, "/demo/user/" + user, null).statusCode();
            Thread.sleep(status == 429 ? 50 : 0);
        }
        assertEquals(200, status, "the second server heard the reset and asked Redis");
        HttpResponse<String> after = get(first, "/tollgate/admin/limits/demo-user/peek?client=" + user, OPERATOR);
        assertTrue(after.body().contains("\"wouldAllow\":true,\"remaining\":2"), after.body());
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(
                                l -> l.contains("Tollgate audit: operator reset limit 'demo-user' for client " + hash)),
                "one audit line: who, what, which client's hash");
        assertFalse(
                LibertyServer.log().stream().anyMatch(l -> l.contains("audit") && l.contains(user)), "never the key");
    }

    @Test
    void theConsoleIsAPageForTheOperator() throws Exception {
        assertEquals(
                401, get(LibertyServer.baseUrl(), "/tollgate/console", null).statusCode());
        HttpResponse<String> page = get(LibertyServer.baseUrl(), "/tollgate/console", OPERATOR);
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("Content-Type").orElse("").startsWith("text/html"));
        assertTrue(page.body().contains("<title>Tollgate console</title>"));
        assertTrue(page.body().contains("/admin/state"), "it polls the state");
    }

    @Test
    void aShadowLimitNeverDeniesAndCountsWhatItWouldHave() throws Exception {
        long before = LibertyServer.metric("tollgate_decisions_total", "demo-shadow", "would_deny");
        // A range of its own: ConsoleIT spends /demo/shadow from 198.51.100.x, and one of its 200 addresses
        // met this test's within the minute's refill once (6 counted where 3 are due).
        String client = "203.0.113." + (System.nanoTime() % 200 + 1);
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> r = LibertyServer.get("/demo/shadow", "X-Forwarded-For", client);
            assertEquals(200, r.statusCode(), "call " + i);
            assertTrue(r.headers().firstValue("RateLimit").isEmpty(), "a shadow limit tells the client nothing");
        }
        assertEquals(3, LibertyServer.metric("tollgate_decisions_total", "demo-shadow", "would_deny") - before);
        assertTrue(LibertyServer.log().stream()
                .anyMatch(l -> l.contains("shadow limit 'demo-shadow'") && l.contains("would have denied")));
    }

    @Test
    void aFloodOnADeniedClientCostsRedisNothing() throws Exception {
        String user = "flood-" + System.nanoTime();
        for (int i = 0; i < 4; i++) {
            get(LibertyServer.baseUrl(), "/demo/user/" + user, null);
        }
        try (Jedis admin = redis.admin()) {
            admin.configResetStat();
        }
        long held = held("demo-user");
        for (int i = 0; i < 200; i++) {
            assertEquals(
                    429,
                    get(LibertyServer.baseUrl(), "/demo/user/" + user, null).statusCode());
        }
        long scripts;
        try (Jedis admin = redis.admin()) {
            scripts = admin.info("commandstats")
                    .lines()
                    .filter(l -> l.startsWith("cmdstat_evalsha:") || l.startsWith("cmdstat_eval:"))
                    .mapToLong(l -> Long.parseLong(l.replaceAll("^[^:]+:calls=(\\d+),.*", "$1")))
                    .sum();
        }
        System.out.println("OperateIT: 200 denied requests through Liberty, " + scripts + " scripts ran in Redis");
        // Nothing else runs a script meanwhile but the other ITs' servers' idle work: a handful at most.
        assertTrue(scripts <= 10, scripts + " scripts for 200 denied requests");
        assertTrue(held("demo-user") - held >= 200);
    }

    /** {@code tollgate_held_denials_total{limit}} of the first server, 0 before the first. */
    private static long held(String limit) {
        return LibertyServer.metrics()
                .lines()
                .filter(l -> l.startsWith("tollgate_held_denials_total{") && l.contains("limit=\"" + limit + "\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
