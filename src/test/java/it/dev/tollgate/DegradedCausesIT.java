package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
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
 * Errors Redis answers with, through Liberty and MicroProfile Fault Tolerance's breaker, on a server and
 * a Redis of this class's own (Tollgate connects as ACL user {@code tollgate}): a key of the wrong type
 * degrades its own calls ({@code cause="data-error"}), refused credentials degrade every call ({@code
 * cause="auth"}, an ERROR, readiness says so), and neither opens the breaker.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DegradedCausesIT {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static ExtraServer server;

    @BeforeAll
    static void start() throws Exception {
        try (Jedis j = redis.admin()) {
            j.aclSetUser("tollgate", "on", ">s3cret", "~*", "+@all");
        }
        server = ExtraServer.start(
                "causes",
                java.util.List.of(),
                Map.of(
                        "TOLLGATE_REDIS_URL",
                        "redis://tollgate:s3cret@" + redis.host() + ":" + redis.port(),
                        "TOLLGATE_REDIS_TIMEOUT",
                        "2s"));
        assertTrue(server.started(), server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void aKeyOfTheWrongTypeDegradesItsOwnCallsOnly() throws Exception {
        try (Jedis j = redis.admin()) {
            j.set(StoreKeys.of("demo-user", "mallory"), "written by someone else");
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
        long auth = metric("tollgate_degraded_decisions_total", "demo", "allowed", "auth");
        assertTrue(auth >= 5, "degraded with cause auth: " + auth + "\n" + metrics());
        assertEquals(0, metric("tollgate_breaker_open", null, null, null), "refused credentials are not an outage");
        String ready = server.get("/health/ready").body();
        assertTrue(ready.contains("\"redisAuth\":\"refused: ") && ready.contains("WRONGPASS"), ready);
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
        assertTrue(server.get("/health/ready").body().contains("\"redisAuth\":\"ok\""));
        assertEquals(1, logLines("accepts Tollgate's credentials again"));
    }

    private static String metrics() throws Exception {
        return server.get("/metrics?scope=application").body();
    }

    /** A counter or gauge, by its tags (null: any); 0 when not registered. */
    private static long metric(String name, String limit, String outcome, String cause) throws Exception {
        for (String line : metrics().split("\n")) {
            if ((line.startsWith(name + "{") || line.startsWith(name + " "))
                    && (limit == null || line.contains("limit=\"" + limit + "\""))
                    && (outcome == null || line.contains("outcome=\"" + outcome + "\""))
                    && (cause == null || line.contains("cause=\"" + cause + "\""))) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static long logLines(String text) throws Exception {
        return server.log().lines().filter(l -> l.contains(text)).count();
    }
}
