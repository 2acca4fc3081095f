package dev.tollgate.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.tollgate.engine.Tollgate;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The README's keys, as Redis holds them after a check: {@code tg:<tb|fw|sw>:{<limit>:<hash>}}, the hash
 * 128 bits of SHA-256 of the client key's first 512 characters (base64url), so a client key's length
 * and characters (braces that would move the hash tag, a newline) never reach Redis.
 */
class StoreKeysTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @Test
    void aClientKeyReachesRedisOnlyAsA128BitHashInsideItsLimitsHashTag() throws Exception {
        String client = "}{evil}\n" + "x".repeat(10_000);
        try (Tollgate tollgate = Tollgate.build(TestSettings.read(
                "tollgate.redis.url", redis.url(),
                "tollgate.redis.timeout", "2s",
                "tollgate.limits.keys-tb.capacity", "5",
                "tollgate.limits.keys-tb.refill-tokens", "1",
                "tollgate.limits.keys-fw.algorithm", "fixed-window",
                "tollgate.limits.keys-fw.capacity", "5",
                "tollgate.limits.keys-sw.algorithm", "sliding-window",
                "tollgate.limits.keys-sw.capacity", "5"))) {
            for (String limit : Set.of("keys-tb", "keys-fw", "keys-sw")) {
                assertFalse(tollgate.check(limit, client).degraded(), limit);
            }
        }
        String hash = sha256Base64Url128(client.substring(0, 512));
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

    private static String sha256Base64Url128(String s) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 16));
    }
}
