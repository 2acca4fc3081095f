package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.JedisClusterCRC16;

/**
 * The README's keys, as Redis holds them after a check: {@code tg:<tk|fw|sw>:{<limit>:<hash>}}, the hash
 * 128 bits of SHA-256 of the whole client key (base64url), so a client key's length and characters
 * (braces that would move the hash tag, a newline) never reach Redis; a key too long for that is refused,
 * never cut.
 */
class StoreKeysTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @Test
    void aClientKeyReachesRedisOnlyAsA128BitHashInsideItsLimitsHashTag() throws Exception {
        String client = "}{evil}\n" + "x".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH - 8);
        try (Engine tollgate = Engine.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "2s",
                "tollgate.limits.keys-tb.capacity", "5",
                "tollgate.limits.keys-tb.refill-tokens", "1",
                // Periods of an hour: each key outlives the test however long a loaded machine takes
                // between the check and the read (a 1 s window's key had expired once in CI).
                "tollgate.limits.keys-tb.refill-period", "1h",
                "tollgate.limits.keys-fw.algorithm", "fixed-window",
                "tollgate.limits.keys-fw.capacity", "5",
                "tollgate.limits.keys-fw.refill-period", "1h",
                "tollgate.limits.keys-sw.algorithm", "sliding-window",
                "tollgate.limits.keys-sw.capacity", "5",
                "tollgate.limits.keys-sw.refill-period", "1h"))) {
            for (String limit : Set.of("keys-tb", "keys-fw", "keys-sw")) {
                assertFalse(tollgate.check(limit, client).degraded(), limit);
            }
        }
        String hash = sha256Base64Url128(client);
        assertEquals(22, hash.length());
        try (Jedis j = redis.admin()) {
            assertEquals(
                    new TreeSet<>(Set.of(
                            "tg:tk:{keys-tb:" + hash + "}",
                            "tg:fw:{keys-fw:" + hash + "}",
                            "tg:sw:{keys-sw:" + hash + "}")),
                    new TreeSet<>(j.keys("tg:*")));
        }
    }

    /**
     * What every script of a limit is sent: the client's bucket or window and its operator rules, two
     * keys of one Cluster slot, whatever the algorithm and the key prefix; nothing else is read.
     */
    @Test
    void aDecisionSendsTwoKeysOfOneSlotItsStateAndItsRules() {
        for (StoreKeys keys : List.of(StoreKeys.DEFAULT, StoreKeys.in(new KeyPrefix("shop:")))) {
            for (Algorithm algorithm : Algorithm.values()) {
                String storeKey = keys.of(algorithm, "api", "client");
                List<String> sent = RedisRateLimitStore.keys(storeKey);
                assertEquals(List.of(storeKey, StoreKeys.rules(storeKey)), sent, algorithm + " " + storeKey);
                assertEquals(
                        1,
                        sent.stream().map(JedisClusterCRC16::getSlot).distinct().count(),
                        "one slot: " + sent);
            }
        }
    }

    @Test
    void twoKeysAlikeInTheirFirst512CharactersHaveTwoBuckets() {
        String shared = "eyJhbGciOiJSUzI1NiJ9." + "a".repeat(491);
        String real = shared + "b".repeat(88);
        String forged = shared + "c".repeat(88);
        assertEquals(512, shared.length());
        assertEquals(600, real.length());
        try (Engine tollgate = Engine.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "2s",
                "tollgate.limits.tokens.capacity", "1",
                "tollgate.limits.tokens.refill-tokens", "0",
                "tollgate.limits.tokens.persist", "true",
                "tollgate.limits.tokens.key", "header:Authorization"))) {
            assertTrue(tollgate.check("tokens", forged).allowed(), "the forged token spends its own bucket");
            assertTrue(tollgate.check("tokens", real).allowed(), "the real one still has its token");
            assertFalse(tollgate.check("tokens", real).allowed(), "and spends it once");
        }
    }

    @Test
    void aKeyLongerThanTheCapIsRefusedAndNamesNoBucket() {
        redis.flushAll();
        String absurd = "k".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH + 1);
        try (Engine tollgate = Engine.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "2s",
                "tollgate.limits.capped.capacity", "5",
                "tollgate.limits.capped.refill-tokens", "1"))) {
            ClientKeyTooLongException e =
                    assertThrows(ClientKeyTooLongException.class, () -> tollgate.check("capped", absurd));
            assertEquals("capped", e.limitName());
            assertEquals(StoreKeys.MAX_CLIENT_KEY_LENGTH + 1, e.length());
            assertFalse(e.getMessage().contains("kkkk"), "the message never holds the key: " + e.getMessage());
            Charge charge = tollgate.charge("capped", absurd, null);
            assertThrows(ClientKeyTooLongException.class, () -> tollgate.limiter()
                    .admit(List.of(tollgate.charge("capped", "fine", null), charge), Duration.ZERO));
            assertTrue(
                    tollgate.check("capped", "k".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH))
                            .allowed(),
                    "a key of the cap's length is taken");
        }
        try (Jedis j = redis.admin()) {
            assertEquals(1, j.keys("tg:*").size(), "only the key of the cap's length has a bucket: " + j.keys("*"));
        }
    }

    private static String sha256Base64Url128(String s) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16));
    }
}
