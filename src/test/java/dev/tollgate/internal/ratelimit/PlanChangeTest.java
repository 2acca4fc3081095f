package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A caller's plan chooses the policy of the limit's own bucket, at each call: a plan change applies at
 * the next call, and the bucket keeps its tokens (an upgrade refills at the new rate up to the new
 * capacity, a downgrade cuts what is above the new capacity at once). On Redis and in process.
 */
class PlanChangeTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine tollgate(boolean onRedis) {
        List<String> p = new ArrayList<>(List.of(
                "tollgate.limits.api.capacity", "5",
                "tollgate.limits.api.refill-tokens", "5",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.plans", "free:api-free,pro:api-pro",
                "tollgate.limits.api.plan-resolver", "tiers",
                "tollgate.limits.api-free.capacity", "5",
                "tollgate.limits.api-free.refill-tokens", "5",
                "tollgate.limits.api-free.refill-period", "1m",
                "tollgate.limits.api-pro.capacity", "50",
                "tollgate.limits.api-pro.refill-tokens", "50",
                "tollgate.limits.api-pro.refill-period", "1m"));
        if (onRedis) {
            p.addAll(List.of("tollgate.redis.url", redis.url(), "tollgate.redis.timeout", "5s"));
        }
        return Engine.build(TestSettings.read(p.toArray(String[]::new)));
    }

    private static Decision spend(Engine t, String key, String plan) {
        return t.limiter()
                .admit(List.of(t.charge("api", key, plan)), Duration.ZERO)
                .decision(0);
    }

    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void anUpgradeKeepsTheTokensAndRefillsAtTheNewRate(boolean onRedis) {
        try (Engine t = tollgate(onRedis)) {
            String key = UUID.randomUUID().toString();
            for (int i = 0; i < 5; i++) {
                assertTrue(spend(t, key, "free").allowed());
            }
            Decision free = spend(t, key, "free");
            assertFalse(free.allowed());
            assertTrue(free.retryAfter().compareTo(Duration.ofSeconds(11)) > 0, "a token per 12 s: " + free);
            Decision pro = spend(t, key, "pro");
            assertFalse(pro.allowed(), "the upgrade does not fill the bucket");
            assertTrue(pro.retryAfter().compareTo(Duration.ofMillis(1200)) <= 0, "a token per 1.2 s: " + pro);
        }
    }

    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void aDowngradeCutsTheTokensAboveTheNewCapacityAtOnce(boolean onRedis) {
        try (Engine t = tollgate(onRedis)) {
            String key = UUID.randomUUID().toString();
            assertEquals(49, spend(t, key, "pro").remaining());
            assertEquals(4, spend(t, key, "free").remaining());
            assertEquals(3, spend(t, key, "pro").remaining(), "back on pro: what the free call left");
        }
    }

    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void aPlanThatIsNotConfiguredSpendsUnderTheLimitsOwnPolicy(boolean onRedis) {
        try (Engine t = tollgate(onRedis)) {
            Charge gold = t.charge("api", "k", "gold");
            assertNull(gold.plan());
            assertEquals(t.limit("api").policy(), gold.policy());
            Charge pro = t.charge("api", "k", "pro");
            assertEquals("pro", pro.plan());
            assertEquals("api", pro.policy().name(), "the plan's numbers under the limit's name");
            assertEquals(50, pro.policy().capacity());
        }
    }
}
