package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * Idempotent charges through the demo ({@code /demo/charge}, limit {@code demo-charge}: 1,000, one back
 * a day, records kept for an hour) on two real Liberty servers and a real Redis, the bucket read back.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class ChargesIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    @BeforeAll
    static void serversReady() throws Exception {
        RedisReady.awaitBurstReady();
    }

    private static long tokens(String client) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, StoreKeys.DEFAULT.of("demo-charge", client))
                    .wholeTokens();
        }
    }

    /** Ten requests with one key, alternating between the two servers: all 200, one unit spent. */
    @Test
    void tenRequestsWithOneIdempotencyKeySpendOneUnit() throws Exception {
        String client = "10.0.26.1";
        String key = UUID.randomUUID().toString();
        List<Reply> replies = Load.fire(10, 1, i -> SERVERS.get(i % 2), c -> c.charge(key, client));
        assertEquals(10, Load.count(replies, 200));
        assertEquals(999, tokens(client));
    }

    @Test
    void tenRequestsWithDistinctKeysSpendTen() throws Exception {
        String client = "10.0.26.2";
        List<Reply> replies = Load.fire(
                10, 1, i -> SERVERS.get(i % 2), c -> c.charge(UUID.randomUUID().toString(), client));
        assertEquals(10, Load.count(replies, 200));
        assertEquals(990, tokens(client));
    }

    @Test
    void theSameKeyOnAnotherMethodIsNoRepeat() {
        String client = "10.0.26.3";
        String key = UUID.randomUUID().toString();
        try (Response post = demo.charge(key, client);
                Response put = demo.replaceCharge(key, client);
                Response again = demo.charge(key, client)) {
            assertEquals(200, post.getStatus());
            assertEquals(200, put.getStatus());
            assertEquals(200, again.getStatus());
        }
        assertEquals(998, tokens(client));
    }

    /** A key of 256 characters is a 400 with a body that says why, and spends nothing. */
    @Test
    void anAbsurdlyLongKeyIsABadRequestNotACharge() {
        String client = "10.0.26.4";
        try (Response first = demo.charge(null, client)) {
            assertEquals(200, first.getStatus());
        }
        try (Response r = demo.charge("k".repeat(256), client)) {
            assertEquals(400, r.getStatus());
            String body = r.readEntity(String.class);
            assertTrue(body.contains("an idempotency key is 1 to 255 visible ASCII characters"), body);
            assertTrue(body.contains("it had 256 characters"), body);
        }
        try (Response r = demo.charge("two words", client)) {
            assertEquals(400, r.getStatus());
        }
        assertEquals(999, tokens(client));
    }

    private static long settleTokens(String customer) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, StoreKeys.DEFAULT.of("demo-settle", customer))
                    .wholeTokens();
        }
    }

    /** Estimated at 1,000, settled at 1,342: the bucket ends 1,342 lower; settled at 200: 200 lower. */
    @Test
    void aCallSettlesAtItsActualCost() {
        String more = "settle-" + UUID.randomUUID();
        try (Response r = demo.settle(more, 1000, 1342)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(10000 - 1342, settleTokens(more));
        String less = "settle-" + UUID.randomUUID();
        try (Response r = demo.settle(less, 1000, 200)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(10000 - 200, settleTokens(less));
    }

    /** A negative actual cost is a 400 that names the rule, and never gives more back than was spent. */
    @Test
    void aNegativeActualCostIsRefused() {
        String customer = "settle-" + UUID.randomUUID();
        try (Response r = demo.settle(customer, 1000, -5000)) {
            assertEquals(400, r.getStatus());
            String body = r.readEntity(String.class);
            assertTrue(body.contains("a settled cost is a whole number from 0 to"), body);
        }
        assertEquals(9000, settleTokens(customer));
    }

    /** The same through an annotated method that reports its cost (CostReport): read back from Redis. */
    @Test
    void anAnnotatedMethodSettlesAtTheCostItReports() {
        String more = "reported-" + UUID.randomUUID();
        try (Response r = demo.settleReported(more, 1000, 1342)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(10000 - 1342, settleTokens(more));
        String less = "reported-" + UUID.randomUUID();
        try (Response r = demo.settleReported(less, 1000, 200)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(10000 - 200, settleTokens(less));
        String bad = "reported-" + UUID.randomUUID();
        try (Response r = demo.settleReported(bad, 1000, -5)) {
            assertEquals(400, r.getStatus());
        }
        assertEquals(9000, settleTokens(bad), "a refused report keeps the estimate");
    }

    private static long monthlySpent(String apiKey) {
        try (Jedis j = redis.admin()) {
            String n = j.hget(StoreKeys.DEFAULT.of(Algorithm.CALENDAR, "demo-monthly", apiKey), "n");
            return n == null ? 0 : Long.parseLong(n);
        }
    }

    /**
     * The demo's monthly quota per API key beside its plan, on one call: RateLimit-Policy names both; a
     * charge spends one unit, its retry nothing; a settled call spends the units it reported.
     */
    @Test
    void theMonthlyQuotaAppliesBesideThePlan() {
        String apiKey = "k-pro-" + UUID.randomUUID();
        String key = UUID.randomUUID().toString();
        try (Response r = demo.meteredCharge(apiKey, key)) {
            assertEquals(200, r.getStatus());
            String policies = String.join(",", r.getStringHeaders().get("RateLimit-Policy"));
            assertTrue(policies.contains("\"demo-monthly\";q=100000"), policies);
            assertTrue(policies.contains("\"demo-plan"), policies);
        }
        assertEquals(1, monthlySpent(apiKey));
        try (Response r = demo.meteredSettle(apiKey, 1342)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(1 + 1342, monthlySpent(apiKey));
        try (Response r = demo.meteredCharge(apiKey, key)) {
            assertEquals(200, r.getStatus());
        }
        assertEquals(1 + 1342, monthlySpent(apiKey), "a retried charge spends nothing more");
        try (Response r = demo.meteredCharge("no-plan", null)) {
            assertEquals(401, r.getStatus());
        }
    }
}
