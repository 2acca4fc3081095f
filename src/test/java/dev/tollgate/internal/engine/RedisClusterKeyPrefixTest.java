package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.ClientOverride;
import dev.tollgate.Permit;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * {@code tollgate.redis.key-prefix} on a 3-master Redis Cluster: the prefix leaves each key's hash tag
 * first, so a decision's bucket and operator rules, a lock and its fence, share one slot (the same slot as
 * without a prefix) and every script runs (a key of another slot would be refused, CROSSSLOT); clients
 * spread over every master.
 */
class RedisClusterKeyPrefixTest {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    @Test
    void prefixedKeysKeepTheirHashTagOnEveryMaster() {
        try (Engine t = Engine.build(TestSettings.read(
                "tollgate.redis.url", cluster.url(),
                "tollgate.redis.timeout", "5s",
                "tollgate.redis.key-prefix", "shop-prod:",
                "tollgate.limits.api.capacity", "1",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.concurrency.reports.max-in-flight", "1"))) {
            Set<Integer> masters = new HashSet<>();
            for (int i = 0; i < 12; i++) {
                String client = "client-" + i;
                String storeKey = t.limiter().keys().of(t.limit("api"), client);
                assertTrue(storeKey.startsWith("shop-prod:tg:tk:{api:"), storeKey);
                assertEquals(
                        JedisClusterCRC16.getSlot(StoreKeys.DEFAULT.of(t.limit("api"), client)),
                        JedisClusterCRC16.getSlot(storeKey),
                        "the prefix does not move the slot");
                masters.add(cluster.ownerOf(storeKey));
                t.admin()
                        .override(
                                "api",
                                client,
                                ClientOverride.tokenBucket(2, 1, Duration.ofHours(1)),
                                Duration.ofMinutes(5));
                assertTrue(t.check("api", client).allowed(), client);
                assertTrue(
                        t.check("api", client).allowed(),
                        client + ": the override's capacity, read in the bucket's slot");
                t.admin().block("api", client, Duration.ofMinutes(5));
                assertFalse(t.check("api", client).allowed(), client);
                assertFalse(t.check("api", client).degraded(), client);
                String lock = "job-" + i;
                assertInstanceOf(Acquisition.Acquired.class, t.locks().tryAcquire(lock, Duration.ofMinutes(1)), lock);
                assertEquals(1, t.counters().increment("count-" + i, 1, Duration.ofMinutes(1)));
                try (Permit p = t.tryEnter("reports", client)) {
                    assertTrue(p.admitted() && !p.degraded(), client);
                }
            }
            assertEquals(3, masters.size(), "clients on every master");
        }
    }
}
