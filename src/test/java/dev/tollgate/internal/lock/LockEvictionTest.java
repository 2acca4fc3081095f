package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Locks on a Redis that evicts keys when full, as a cache's Redis does ({@code allkeys-lru}). */
class LockEvictionTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer("--maxmemory", "4mb", "--maxmemory-policy", "allkeys-lru");

    private static RedisLink link;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 4));
    }

    @AfterAll
    static void close() {
        link.close();
    }

    /** The counter was evicted and the next acquisition was handed fencing token 1 again. */
    @Test
    void evictedFenceKeyNeverHandsOutALowerToken() {
        RedisDistributedLock lock = RedisDistributedLock.using(link);
        long last = 0;
        for (int i = 0; i < 3; i++) {
            LockHandle h = assertInstanceOf(
                            Acquisition.Acquired.class, lock.tryAcquire("export", Duration.ofMinutes(1)))
                    .lock();
            assertTrue(h.fencingToken() > last);
            last = h.fencingToken();
            assertTrue(h.release());
        }
        fillUntilEvicted("tollgate:fence:{export}");
        LockHandle after = assertInstanceOf(
                        Acquisition.Acquired.class, lock.tryAcquire("export", Duration.ofMinutes(1)))
                .lock();
        assertTrue(after.fencingToken() > last, after.fencingToken() + " after " + last);
    }

    @Test
    void warnsOnceThatRedisMayEvictLockKeys() {
        try (LogCapture log = new LogCapture(RedisDistributedLock.class)) {
            RedisDistributedLock lock = RedisDistributedLock.using(link);
            lock.checkEvictionPolicy();
            lock.checkEvictionPolicy();
            lock.tryAcquire("warned", Duration.ofSeconds(1));
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("maxmemory-policy allkeys-lru with maxmemory 4.00M"), warnings.get(0));
            assertTrue(warnings.get(0).contains("noeviction"), warnings.get(0));
            assertTrue(warnings.get(0).contains(link.description()), warnings.get(0));
        }
    }

    /** Tollgate as users build it: asking for its locks (the lock API in use) reads the policy once. */
    @Test
    void tollgateWarnsOnceWhenItsLocksAreAskedFor() {
        TollgateSettings settings = TestSettings.read("tollgate.redis.url", redis.url());
        try (LogCapture log = new LogCapture(RedisDistributedLock.class);
                Engine tollgate = Engine.build(settings)) {
            assertEquals(List.of(), log.at(Level.WARNING), "nothing before the lock API is used");
            tollgate.locks();
            tollgate.locks().tryAcquire("warned-once", Duration.ofSeconds(1));
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).contains("allkeys-lru"), warnings.get(0));
        }
    }

    /** Writes 16 KB values until Redis has evicted {@code key}. */
    private static void fillUntilEvicted(String key) {
        try (Jedis j = redis.admin()) {
            assertTrue(j.exists(key));
            String value = "x".repeat(16 * 1024);
            for (int i = 0; i < 10_000 && j.exists(key); i++) {
                j.set("filler:" + i, value);
            }
            assertFalse(j.exists(key), "evicted under allkeys-lru");
        }
    }
}
