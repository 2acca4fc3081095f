package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A bucket's leases out ({@code tg:lo:{<limit>:<hash>}}, {@code token-bucket-lease.lua}) on a real Redis:
 * each lease is written down under its server, struck out when given back, and a lease never given back
 * is found abandoned, once, by the next lease of another server, which answers its tokens; what Tollgate
 * cannot have written there is dropped, never counted, and never stops a decision.
 */
class LeasesOutTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final LimitPolicy QUOTA = new LimitPolicy("quota", 100, 0, Duration.ofSeconds(1), 1);
    private static final Duration LONG = Duration.ofMinutes(1);

    private static RedisLink link;
    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 4));
        store = RedisRateLimitStore.tokenBucket(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    private static String freshKey() {
        return StoreKeys.DEFAULT.of("quota", UUID.randomUUID().toString());
    }

    private static Granted lease(String key, String holder, long want, long returned, Duration abandonedAfter) {
        return store.lease(QUOTA, key, new LeaseTerms(want, 1, returned, holder, abandonedAfter));
    }

    private static Map<String, String> out(String key) {
        try (Jedis j = redis.admin()) {
            return j.hgetAll(StoreKeys.leasesOut(key));
        }
    }

    @Test
    void aLeaseIsWrittenDownUnderItsServerAndStruckOutWhenGivenBack() {
        String key = freshKey();
        Granted a = lease(key, "a", 10, 0, LONG);
        assertEquals(10, a.tokens());
        String entry = out(key).get("a");
        assertTrue(entry != null && entry.startsWith("10 "), "a's lease of 10 is written down: " + out(key));
        long from = Long.parseLong(entry.split(" ")[1]);
        long now = redis.timeMicros();
        assertTrue(from > now + 50_000_000 && from <= now + 60_000_000, "abandoned from a minute on: " + from);
        try (Jedis j = redis.admin()) {
            assertTrue(j.pttl(StoreKeys.leasesOut(key)) > 60_000, "kept longer than the lease can be found abandoned");
        }

        Granted back = store.lease(QUOTA, key, LeaseTerms.givingBack(4, "a", LONG));
        assertEquals(0, back.tokens(), "giving back leases nothing");
        assertEquals(94, back.decision().remaining(), "the 4 left came back: " + back);
        assertEquals(Map.of(), out(key), "a's lease is struck out");
    }

    @Test
    void aLeaseNeverGivenBackIsFoundAbandonedOnceByAnotherServer() {
        String key = freshKey();
        assertEquals(10, lease(key, "dead", 10, 0, Duration.ofMillis(1)).tokens());
        assertEquals(10, lease(key, "alive", 10, 0, LONG).abandoned() + awaitAbandoned(key));
        assertFalse(out(key).containsKey("dead"), "struck out: " + out(key));
        assertEquals(0, lease(key, "other", 5, 0, LONG).abandoned(), "counted once");
        assertEquals(
                0, lease(key, "alive", 5, 0, LONG).abandoned(), "a server's own last lease is never its abandonment");
    }

    /** The abandonment found by leases of a third server, until the first lease asked of it was over. */
    private static long awaitAbandoned(String key) {
        long found = 0;
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (out(key).containsKey("dead") && System.nanoTime() < deadline) {
            found += store.lease(QUOTA, key, LeaseTerms.givingBack(0, "watcher", LONG))
                    .abandoned();
        }
        return found;
    }

    @Test
    void aLeaseWhoseTimeIsNotOverIsNotAbandoned() {
        String key = freshKey();
        lease(key, "a", 10, 0, LONG);
        assertEquals(0, lease(key, "b", 10, 0, LONG).abandoned());
        assertEquals(2, out(key).size(), "both leases out: " + out(key));
    }

    @Test
    void entriesTollgateCannotHaveWrittenAreDroppedUncounted() {
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.hset(StoreKeys.leasesOut(key), Map.of("x", "lots", "y", "5", "z", "-3 1", "w", "99999999999999999999 1"));
        }
        Granted g = lease(key, "a", 10, 0, LONG);
        assertEquals(10, g.tokens(), "still decided");
        assertEquals(0, g.abandoned());
        assertEquals(java.util.Set.of("a"), out(key).keySet());
    }

    @Test
    void leasesOutOfAnotherTypeFailTheCallBeforeAnythingIsWritten() {
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.set(StoreKeys.leasesOut(key), "someone else's");
        }
        RuntimeException e = assertThrows(RuntimeException.class, () -> lease(key, "a", 10, 0, LONG));
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        assertTrue(String.valueOf(root.getMessage()).contains("WRONGTYPE"), String.valueOf(root.getMessage()));
        try (Jedis j = redis.admin()) {
            assertFalse(j.exists(key), "no bucket written");
            assertEquals("someone else's", j.get(StoreKeys.leasesOut(key)));
        }
    }

    @Test
    void termsOutsideTheirRangesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(-1, 1, 0, "a", LONG));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(1, 0, 0, "a", LONG));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(1, 1, -1, "a", LONG));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(1, 1, 0, "", LONG));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(1, 1, 0, "a".repeat(101), LONG));
        assertThrows(IllegalArgumentException.class, () -> new LeaseTerms(1, 1, 0, "a", Duration.ZERO));
    }
}
