package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.ClientOverride;
import dev.tollgate.LockHold;
import dev.tollgate.Permit;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code tollgate.redis.key-prefix} on one Redis database: two engines with different prefixes keep
 * apart every key family (buckets, operator rules, locks and their fences, counters, concurrency leases)
 * and their channels; without a prefix every key is named as it always was, so an upgrade keeps its state.
 */
class KeyPrefixTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine engine(String prefix) {
        List<String> kv = new ArrayList<>(List.of(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "2s",
                "tollgate.limits.api.capacity", "1",
                "tollgate.limits.api.refill-tokens", "0",
                "tollgate.limits.api.persist", "true",
                "tollgate.concurrency.reports.max-in-flight", "1"));
        if (prefix != null) {
            kv.addAll(List.of("tollgate.redis.key-prefix", prefix));
        }
        return Engine.build(TestSettings.read(kv.toArray(String[]::new)));
    }

    /**
     * One key of each family, and a lock wait (which listens for release notices); for the second engine,
     * the check passes only because the first engine's spent bucket is not its own.
     */
    private static Permit touchEveryFamily(Engine t) {
        assertTrue(t.check("api", "alice").allowed());
        t.admin().block("api", "bob", Duration.ofHours(1));
        t.admin().override("api", "carol", ClientOverride.tokenBucket(5, 1, Duration.ofHours(1)), Duration.ofHours(1));
        assertInstanceOf(Acquisition.Acquired.class, t.locks().tryAcquire("nightly", Duration.ofMinutes(1)));
        assertEquals(1, t.counters().increment("signups", 1, Duration.ofHours(1)));
        Permit p = t.tryEnter("reports", "dave");
        assertTrue(p.admitted());
        assertInstanceOf(
                Acquisition.HeldElsewhere.class,
                t.locks().tryAcquire("nightly", Duration.ofMinutes(1), Duration.ofMillis(50)));
        return p;
    }

    @Test
    void twoEnginesWithDifferentPrefixesKeepApartBucketsRulesLocksCountersAndLeases() throws Exception {
        redis.flushAll();
        try (Engine a = engine("app-a:");
                Engine b = engine("staging/app-b:");
                Permit pa = touchEveryFamily(a);
                Permit pb = touchEveryFamily(b)) {
            assertFalse(a.check("api", "alice").allowed(), "a's bucket is spent");
            a.admin().block("api", "frank", Duration.ofHours(1));
            a.admin()
                    .override(
                            "api", "gina", ClientOverride.tokenBucket(9, 1, Duration.ofHours(1)), Duration.ofHours(1));
            assertFalse(a.check("api", "frank").allowed(), "a's block holds in a");
            assertTrue(b.check("api", "frank").allowed(), "a's block is not b's");
            assertTrue(a.admin().rules("api", "gina").override().isPresent());
            assertTrue(b.admin().rules("api", "gina").override().isEmpty(), "a's override is not b's");
            assertInstanceOf(Acquisition.Acquired.class, a.locks().tryAcquire("hourly", Duration.ofMinutes(1)));
            assertInstanceOf(
                    Acquisition.Acquired.class,
                    b.locks().tryAcquire("hourly", Duration.ofMinutes(1)),
                    "a's lock is not b's");
            assertEquals(2, a.counters().increment("logins", 2, Duration.ofHours(1)));
            assertEquals(0, b.counters().get("logins"), "a's counter is not b's");
            assertEquals(1, a.counters().get("signups"));
            assertEquals(List.of("hourly", "nightly"), held(b));
            assertTrue(b.lockAdmin().forceRelease("nightly"));
            assertEquals(List.of("hourly"), held(b));
            assertEquals(List.of("hourly", "nightly"), held(a), "b's operator released b's lock, not a's");
            try (Jedis j = redis.admin()) {
                Set<String> keys = new TreeSet<>(j.keys("*"));
                assertEquals(
                        Set.of(),
                        keys.stream()
                                .filter(k -> !k.startsWith("app-a:") && !k.startsWith("staging/app-b:"))
                                .collect(Collectors.toSet()),
                        "every key is under one of the prefixes: " + keys);
                for (String prefix : List.of("app-a:", "staging/app-b:")) {
                    Set<String> own = families(keys, prefix);
                    assertTrue(
                            own.containsAll(Set.of(
                                    "tg:tk", "tg:op", "tollgate:lock", "tollgate:fence", "tollgate:counter", "tg:in")),
                            prefix + ": " + own);
                }
                awaitChannels(
                        j,
                        Set.of(
                                "app-a:tg:operator",
                                "app-a:tollgate:lock-released",
                                "staging/app-b:tg:operator",
                                "staging/app-b:tollgate:lock-released"));
            }
        }
    }

    @Test
    void withoutAPrefixEveryKeyIsNamedAsItAlwaysWas() throws Exception {
        redis.flushAll();
        try (Engine t = engine(null);
                Permit p = touchEveryFamily(t)) {
            try (Jedis j = redis.admin()) {
                Set<String> keys = new TreeSet<>(j.keys("*"));
                keys.removeIf(k -> k.startsWith("tollgate:{probe"));
                assertEquals(
                        new TreeSet<>(Set.of(
                                "tg:tk:{api:" + StoreKeys.clientHash("alice") + "}",
                                "tg:op:{api:" + StoreKeys.clientHash("bob") + "}",
                                "tg:op:{api:" + StoreKeys.clientHash("carol") + "}",
                                "tollgate:lock:{nightly}",
                                "tollgate:fence:{nightly}",
                                "tollgate:lock-names",
                                "tollgate:counter:{signups}",
                                "tg:in:{reports:" + StoreKeys.clientHash("dave") + "}")),
                        keys);
                awaitChannels(j, Set.of("tg:operator", "tollgate:lock-released"));
            }
        }
        assertEquals("tollgate:{probe}", RedisGuards.probeKey(KeyPrefix.NONE, 0));
        assertEquals("tollgate:{probe-3}", RedisGuards.probeKey(KeyPrefix.NONE, 3));
        assertEquals("app:tollgate:{probe-3}", RedisGuards.probeKey(new KeyPrefix("app:"), 3));
    }

    private static List<String> held(Engine t) {
        return t.lockAdmin().held().stream().map(LockHold::name).sorted().toList();
    }

    /** What each key is of: the part between the prefix and its hash tag, without the last colon. */
    private static Set<String> families(Set<String> keys, String prefix) {
        return keys.stream()
                .filter(k -> k.startsWith(prefix) && k.contains("{"))
                .map(k -> k.substring(prefix.length(), k.indexOf('{') - 1))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void awaitChannels(Jedis j, Set<String> expected) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        Set<String> channels = Set.of();
        while (System.nanoTime() < end) {
            channels = new TreeSet<>(j.pubsubChannels());
            if (channels.equals(expected)) {
                return;
            }
            Thread.sleep(20);
        }
        assertEquals(expected, channels, "the channels listened to");
    }
}
