package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * Several limits on one call, plans, cost per call and counting by outcome, through the demo on real
 * Liberty servers and a real Redis (the IT servers' limits do not refill while a test runs: see the pom).
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class TrafficIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    /** Both servers warm for a burst ({@link RedisReady#awaitBurstReady}): a cold pool is not what is counted. */
    @BeforeAll
    static void serversReady() throws Exception {
        RedisReady.awaitBurstReady();
    }

    /**
     * 1000 calls, 32 in flight, alternating between two servers, under 100 (burst) and 300 (day): exactly
     * 100 pass, and the day limit, read back from Redis, is spent by exactly 100 (the 900 denied calls
     * each spent from it and gave back).
     */
    @Test
    void twoLimitsOnOneCallAreAllOrNothingAcrossTwoServers() throws Exception {
        String client = "10.0.12.1";
        List<String> servers = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());
        // Every decision of both limits Redis's: a degraded pass (a reply that missed the budget) would
        // carry no fields of its limit, and is not what this test is about.
        List<Reply> replies = Undegraded.during(
                servers,
                "demo-multi-burst",
                () -> Undegraded.during(
                        servers,
                        "demo-multi-day",
                        () -> Load.fire(1000, 32, i -> servers.get(i % 2), c -> c.multi(client))));
        assertEquals(100, Load.count(replies, 200));
        assertEquals(900, Load.count(replies, 429));
        try (Jedis j = redis.admin()) {
            assertEquals(
                    200,
                    StoredBucket.read(j, StoreKeys.DEFAULT.of("demo-multi-day", client))
                            .wholeTokens());
            assertEquals(
                    0,
                    StoredBucket.read(j, StoreKeys.DEFAULT.of("demo-multi-burst", client))
                            .wholeTokens());
        }
        for (Reply r : replies) {
            if (r.status() == 200) {
                assertEquals(
                        "\"demo-multi-burst\";q=100, \"demo-multi-day\";q=300",
                        r.header("RateLimit-Policy").orElseThrow());
            } else {
                assertTrue(r.body().contains("\"limit\":\"demo-multi-burst\""), r.body());
                assertTrue(
                        r.header("RateLimit")
                                .orElseThrow()
                                .startsWith("\"demo-multi-burst\";r=0, \"demo-multi-day\";r="),
                        r.header("RateLimit").orElseThrow());
            }
        }
    }

    @Test
    void aCallersPlanChoosesThePolicyOfItsBucket() throws Exception {
        List<Reply> free = Load.fire(8, 1, c -> c.plan("k-free-alice"));
        assertEquals(5, Load.count(free, 200));
        assertEquals(3, Load.count(free, 429));
        assertEquals(
                "\"demo-plan\";q=5;w=3600",
                free.get(0).header("RateLimit-Policy").orElseThrow());
        List<Reply> pro = Load.fire(60, 8, c -> c.plan("k-pro-bob"));
        assertEquals(50, Load.count(pro, 200));
        assertEquals(10, Load.count(pro, 429));
        assertEquals(
                "\"demo-plan\";q=50;w=3600",
                pro.get(0).header("RateLimit-Policy").orElseThrow());
        assertEquals(401, Reply.of(demo.plan("k-gold-carol")).status());
        assertEquals(401, Reply.of(demo.plan(null)).status());
        assertTrue(LibertyServer.metrics().contains("plan=\"pro\""), "the plan is a metrics tag");
        assertFalse(LibertyServer.metrics().contains("k-pro-bob"), "the client key never is");
    }

    @Test
    void aCallCostsWhatItsParameterSays() throws Exception {
        String client = "10.0.12.2";
        Reply sixty = Reply.of(demo.export("60", client));
        assertEquals(200, sixty.status());
        assertEquals(
                "\"demo-export\";r=40;t=2160",
                sixty.header("RateLimit").orElseThrow().replaceAll(";t=\\d+", ";t=2160"));
        Reply fifty = Reply.of(demo.export("50", client));
        assertEquals(429, fifty.status(), "50 rows do not fit in the 40 left");
        assertTrue(fifty.header("Retry-After").isPresent());
        assertEquals(200, Reply.of(demo.export("40", client)).status(), "the denied 50 spent nothing");
        Reply tooMany = Reply.of(demo.export("101", "10.0.12.3"));
        assertEquals(429, tooMany.status());
        assertTrue(
                tooMany.body().contains("costs 101, more than limit 'demo-export' ever holds (100)"), tooMany.body());
        assertFalse(tooMany.header("Retry-After").isPresent(), "it can never pass");
        assertEquals(200, Reply.of(demo.export("100", "10.0.12.3")).status(), "and spent nothing");
        Reply bad = Reply.of(demo.export("lots", client));
        assertEquals(400, bad.status());
        assertTrue(bad.body().contains("query parameter 'rows'"), bad.body());
        assertEquals(400, Reply.of(demo.export("-5", client)).status());
        assertEquals(200, Reply.of(demo.export("0", client)).status(), "a call costing nothing asks nothing");
    }

    @Test
    void aLoginLimitCountsFailuresOnly() throws Exception {
        String client = "10.0.12.4";
        for (int i = 0; i < 5; i++) {
            assertEquals(200, Reply.of(demo.login(true, client)).status(), "success " + i + " is not counted");
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(401, Reply.of(demo.login(false, client)).status(), "failure " + i);
        }
        assertEquals(429, Reply.of(demo.login(false, client)).status());
        assertEquals(429, Reply.of(demo.login(true, client)).status(), "after 3 failures even a correct login waits");
        assertTrue(refundsGiven("demo-login") >= 5, "each success was given back");
    }

    @Test
    void aBusinessMethodCostsItsArgumentAndCountsItsFailuresOnly() throws Exception {
        String client = "10.0.12.5";
        assertEquals(200, Reply.of(demo.exportCdi(60, client)).status());
        Reply fifty = Reply.of(demo.exportCdi(50, client));
        assertEquals(429, fifty.status(), "the interceptor's rejection, through the mapper");
        assertTrue(fifty.body().contains("\"limit\":\"demo-export\""), fifty.body());
        assertEquals(200, Reply.of(demo.exportCdi(40, client)).status(), "the denied 50 spent nothing");
        Reply tooMany = Reply.of(demo.exportCdi(101, "10.0.12.6"));
        assertEquals(429, tooMany.status());
        assertTrue(tooMany.body().contains("costs 101"), tooMany.body());
        String login = "10.0.12.7";
        for (int i = 0; i < 5; i++) {
            assertEquals(200, Reply.of(demo.loginCdi(true, login)).status(), "success " + i + " is not counted");
        }
        for (int i = 0; i < 3; i++) {
            assertEquals(401, Reply.of(demo.loginCdi(false, login)).status(), "failure " + i);
        }
        assertEquals(429, Reply.of(demo.loginCdi(true, login)).status(), "after 3 failures even a correct login waits");
    }

    private static long refundsGiven(String limit) {
        return LibertyServer.metrics()
                .lines()
                .filter(l -> l.startsWith("tollgate_refunds_total{")
                        && l.contains("limit=\"" + limit + "\"")
                        && l.contains("result=\"given\""))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }
}
