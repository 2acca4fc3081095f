package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Shadow limits and shadow candidates on a real Redis, through the composition root. */
class ShadowLimitsTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    /** What the listener (the metrics) is told, by limit name and outcome. */
    private final Map<String, AtomicLong> told = new ConcurrentHashMap<>();

    private final DecisionListener listener = (limit, d, nanos) -> told.computeIfAbsent(
                    limit.name() + ":" + (d.allowed() ? "allowed" : limit.shadow() ? "would_deny" : "denied"),
                    k -> new AtomicLong())
            .incrementAndGet();

    private Engine tollgate(String... properties) {
        String[] all = new String[properties.length + 2];
        all[0] = "tollgate.redis.url";
        all[1] = redis.url();
        System.arraycopy(properties, 0, all, 2, properties.length);
        return Engine.builder(TestSettings.read(all)).listener(listener).build();
    }

    private long told(String key) {
        return told.getOrDefault(key, new AtomicLong()).get();
    }

    @Test
    void aShadowLimitSpendsInRedisButLetsEveryCallPassAndCountsWhatItWouldDeny() {
        try (Engine t = tollgate(
                "tollgate.limits.api.capacity", "3",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.mode", "shadow")) {
            for (int i = 0; i < 10; i++) {
                Decision d = t.check("api", "10.0.0.1");
                assertTrue(d.allowed(), "call " + i);
                assertEquals(Duration.ZERO, d.retryAfter());
            }
            assertEquals(3, told("api:allowed"));
            assertEquals(7, told("api:would_deny"));
            try (Jedis admin = redis.admin()) {
                String key = StoreKeys.DEFAULT.of("api", "10.0.0.1");
                assertEquals(0, StoredBucket.read(admin, key).wholeTokens(), "the bucket in Redis is spent");
            }
        }
    }

    @Test
    void theGlobalModeMakesEveryLimitShadowUnlessALimitSaysEnforce() {
        try (Engine t = tollgate(
                "tollgate.mode", "shadow",
                "tollgate.limits.a.capacity", "1",
                "tollgate.limits.a.refill-tokens", "0",
                "tollgate.limits.a.persist", "true",
                "tollgate.limits.b.capacity", "1",
                "tollgate.limits.b.refill-tokens", "0",
                "tollgate.limits.b.persist", "true",
                "tollgate.limits.b.mode", "enforce")) {
            assertEquals(LimitMode.SHADOW, t.limit("a").mode());
            assertEquals(LimitMode.ENFORCE, t.limit("b").mode());
            assertTrue(t.check("a", "k").allowed());
            assertTrue(t.check("a", "k").allowed(), "a shadow quota never denies");
            assertTrue(t.check("b", "k").allowed());
            assertFalse(t.check("b", "k").allowed(), "an enforced quota does");
        }
    }

    @Test
    void aCandidateBesideAnEnforcedLimitSpendsOnItsOwnKeysAndDecidesNothing() {
        try (Engine t = tollgate(
                "tollgate.limits.api.capacity", "5",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.shadow.capacity", "2")) {
            LimitSpec candidate = t.limit("api").candidate();
            assertEquals("api.shadow", candidate.name());
            assertEquals(2, candidate.policy().capacity());
            assertEquals(Duration.ofHours(1), candidate.policy().refillPeriod(), "the rest is the limit's own");
            int allowed = 0;
            for (int i = 0; i < 8; i++) {
                allowed += t.check("api", "user-1").allowed() ? 1 : 0;
            }
            assertEquals(5, allowed, "the enforced limit alone decides");
            assertEquals(5, told("api:allowed"));
            assertEquals(3, told("api:denied"));
            assertEquals(2, told("api.shadow:allowed"));
            assertEquals(6, told("api.shadow:would_deny"));
            try (Jedis admin = redis.admin()) {
                assertTrue(admin.exists(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "api.shadow", "user-1")));
                assertTrue(admin.exists(StoreKeys.DEFAULT.of("api", "user-1")));
            }
        }
    }

    @Test
    void aCandidateOfAnotherAlgorithmTakesNothingOfTheLimitsTokenBucketSettings() {
        try (Engine t = tollgate(
                "tollgate.limits.api.capacity", "5",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.shadow.algorithm", "fixed-window",
                "tollgate.limits.api.shadow.capacity", "100",
                "tollgate.limits.api.shadow.refill-period", "1m")) {
            LimitSpec candidate = t.limit("api").candidate();
            assertEquals(Algorithm.FIXED_WINDOW, candidate.algorithm());
            assertEquals(100, candidate.policy().capacity());
            assertNull(candidate.candidate());
            assertTrue(t.check("api", "x").allowed());
            assertEquals(List.of(1L), List.of(told("api.shadow:allowed")));
        }
    }

    @Test
    void waitingForAShadowLimitNeverWaits() throws Exception {
        try (Engine t = tollgate(
                "tollgate.limits.partner.capacity", "1",
                "tollgate.limits.partner.refill-tokens", "1",
                "tollgate.limits.partner.refill-period", "1h",
                "tollgate.limits.partner.mode", "shadow")) {
            assertTrue(t.acquire("partner", "*", Duration.ofHours(2)).allowed());
            assertTrue(t.acquire("partner", "*", Duration.ofHours(2)).allowed(), "passes at once");
            assertEquals(1, told("partner:would_deny"));
        }
    }
}
