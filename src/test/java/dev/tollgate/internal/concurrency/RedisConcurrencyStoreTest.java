package dev.tollgate.internal.concurrency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisConcurrencyStoreTest extends ConcurrencyStoreContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisConcurrencyStore store;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 40));
        store = RedisConcurrencyStore.using(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected ConcurrencyStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return redis;
    }

    @Test
    void leasesAreASortedSetThatExpiresWithItsLastLease() {
        String key = freshKey();
        ConcurrencySpec spec = spec(3, Duration.ofSeconds(5));
        long before = redis.timeMicros();
        store.take(spec, key, "a");
        try (Jedis j = redis.admin()) {
            double expires = j.zscore(key, "a");
            assertTrue(expires >= before + 5_000_000 && expires < before + 6_000_000, "expiry " + expires);
            long pttl = j.pttl(key);
            assertTrue(pttl > 4_000 && pttl <= 5_000, "the set's ttl " + pttl);
            assertEquals(1, j.zcard(key));
        }
        store.release(key, "a");
        try (Jedis j = redis.admin()) {
            assertEquals(0, j.zcard(key));
        }
    }

    @Test
    void aLongerLeaseIsNotCutByAShorterOne() {
        String key = freshKey();
        store.take(spec(3, Duration.ofSeconds(30)), key, "long");
        store.take(spec(3, Duration.ofSeconds(1)), key, "short");
        try (Jedis j = redis.admin()) {
            assertTrue(j.pttl(key) > 25_000, "the set lives as long as its longest lease");
        }
    }
}
