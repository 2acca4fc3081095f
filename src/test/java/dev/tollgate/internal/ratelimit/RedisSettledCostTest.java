package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Estimate;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestSettings;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Settled costs ({@link Estimate#settle}) on a real Redis, the bucket read back: an estimate spent up
 * front, the difference to the actual cost given back or charged on top (into debt). Quotas that never
 * refill keep the counts independent of time.
 */
class RedisSettledCostTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine tollgate;

    @BeforeAll
    static void build() {
        tollgate = Engine.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "5s",
                "tollgate.limits.tokens.capacity", "10000",
                "tollgate.limits.tokens.refill-tokens", "0",
                "tollgate.limits.tokens.persist", "true",
                "tollgate.limits.small.capacity", "1000",
                "tollgate.limits.small.refill-tokens", "0",
                "tollgate.limits.small.persist", "true",
                "tollgate.limits.month.algorithm", "fixed-window",
                "tollgate.limits.month.capacity", "10000",
                "tollgate.limits.month.refill-period", "36525d",
                "tollgate.limits.quota.algorithm", "calendar",
                "tollgate.limits.quota.period", "year",
                "tollgate.limits.quota.zone", "Europe/Berlin",
                "tollgate.limits.quota.capacity", "10000",
                "tollgate.limits.quota.idempotency-window", "1h"));
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    private static String fresh() {
        return UUID.randomUUID().toString();
    }

    private static long stored(String limit, String client) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, tollgate.limiter().keys().of(tollgate.limit(limit), client))
                    .wholeTokens();
        }
    }

    @Test
    void anEstimateOf1000SettledAt1342LeavesTheBucket1342Lower() {
        String client = fresh();
        Estimate e = tollgate.estimate("tokens", client, 1000);
        assertTrue(e.decision().allowed());
        assertEquals(9000, stored("tokens", client));
        assertTrue(e.settle(1342));
        assertEquals(10000 - 1342, stored("tokens", client));
    }

    @Test
    void anEstimateOf1000SettledAt200LeavesTheBucket200Lower() {
        String client = fresh();
        assertTrue(tollgate.estimate("tokens", client, 1000).settle(200));
        assertEquals(10000 - 200, stored("tokens", client));
    }

    /** Charged past what it holds, the bucket owes: the next call is denied until the debt has refilled. */
    @Test
    void theExcessGoesIntoDebt() {
        String client = fresh();
        assertTrue(tollgate.estimate("small", client, 1000).settle(1342));
        assertEquals(-342, stored("small", client));
        assertFalse(tollgate.check("small", client).allowed());
    }

    @Test
    void aFixedWindowSettlesItsCount() {
        String more = fresh();
        assertTrue(tollgate.estimate("month", more, 1000).settle(1342));
        assertEquals(10000 - 1342 - 1, tollgate.check("month", more).remaining());
        String less = fresh();
        assertTrue(tollgate.estimate("month", less, 1000).settle(200));
        assertEquals(10000 - 200 - 1, tollgate.check("month", less).remaining());
    }

    /** A calendar quota settles as a fixed window does, in the period the call was spent in. */
    @Test
    void aCalendarQuotaSettlesItsCount() {
        String more = fresh();
        assertTrue(tollgate.estimate("quota", more, 1000).settle(1342));
        assertEquals(10000 - 1342 - 1, tollgate.check("quota", more).remaining());
        String less = fresh();
        assertTrue(tollgate.estimate("quota", less, 1000).settle(200));
        assertEquals(10000 - 200 - 1, tollgate.check("quota", less).remaining());
    }

    /** A calendar quota keeps idempotency records too: ten checks with one key spend one unit. */
    @Test
    void aCalendarQuotaSpendsOnceForOneIdempotencyKey() {
        String client = fresh();
        String key = fresh();
        for (int i = 0; i < 10; i++) {
            assertEquals(9999, tollgate.check("quota", client, key).remaining());
        }
        assertEquals(9998, tollgate.check("quota", client).remaining());
    }

    /** A negative or absurd actual cost is refused with its rule, and changes nothing; a second settle too. */
    @Test
    void aHostileActualCostIsRefusedAndNeverAdmitsMore() {
        String client = fresh();
        Estimate e = tollgate.estimate("tokens", client, 1000);
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> e.settle(-5));
        assertTrue(negative.getMessage().contains("a settled cost is a whole number from 0 to"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> e.settle(Long.MIN_VALUE));
        assertThrows(IllegalArgumentException.class, () -> e.settle((1L << 53) + 1));
        assertEquals(9000, stored("tokens", client));
        assertTrue(e.settle(1000));
        assertThrows(IllegalStateException.class, () -> e.settle(0));
        assertEquals(9000, stored("tokens", client));
    }

    @Test
    void aDeniedEstimateHasNothingToSettle() {
        String client = fresh();
        Estimate e = tollgate.estimate("small", client, 1000);
        Estimate denied = tollgate.estimate("small", client, 1);
        assertFalse(denied.decision().allowed());
        assertThrows(IllegalStateException.class, () -> denied.settle(0));
        assertTrue(e.settle(1000));
        assertEquals(0, stored("small", client));
    }
}
