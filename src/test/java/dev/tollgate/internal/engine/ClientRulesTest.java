package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientOverride;
import dev.tollgate.ClientRules;
import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * An operator's credit, per-client override and block on a real Redis, with two Tollgates on it standing
 * for two servers: each is read by the same decision script as the bucket, so every server applies it at
 * once, and whatever lets a denied client pass sooner ends the denial every server holds.
 */
class ClientRulesTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine server(boolean withRedis) {
        return Engine.build(TestSettings.read(
                "tollgate.redis.url", withRedis ? redis.url() : "",
                "tollgate.redis.timeout", "5s",
                "tollgate.limits.api.capacity", "3",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.plans", "pro:api-pro",
                "tollgate.limits.api.plan-resolver", "tiers",
                "tollgate.limits.api-pro.capacity", "50",
                "tollgate.limits.api-pro.refill-tokens", "50",
                "tollgate.limits.api-pro.refill-period", "1h",
                "tollgate.limits.fw.algorithm", "fixed-window",
                "tollgate.limits.fw.capacity", "3",
                "tollgate.limits.fw.refill-period", "1h",
                "tollgate.limits.sw.algorithm", "sliding-window",
                "tollgate.limits.sw.capacity", "3",
                "tollgate.limits.sw.refill-period", "1h"));
    }

    private static String client() {
        return "client-" + UUID.randomUUID();
    }

    private static Decision spend(Engine t, String limit, String key, String plan) {
        return t.limiter()
                .admit(List.of(t.charge(limit, key, plan)), Duration.ZERO)
                .decision(0);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"api", "fw", "sw"})
    void aCreditGivesTokensBackNeverBeyondAFullBucket(String limit) {
        try (Engine t = server(true)) {
            String alice = client();
            assertEquals(0, t.admin().credit(limit, alice, 5), "a client without state is full already");
            for (int i = 0; i < 3; i++) {
                assertTrue(t.check(limit, alice).allowed());
            }
            assertFalse(t.check(limit, alice).allowed());
            assertEquals(2, t.admin().credit(limit, alice, 2));
            assertEquals(2, t.admin().peek(limit, alice).remaining());
            assertEquals(1, t.admin().credit(limit, alice, 5), "up to the capacity, no further");
            assertEquals(3, t.admin().peek(limit, alice).remaining());
            assertEquals(0, t.admin().credit(limit, alice, 1), "full");
            for (int i = 0; i < 3; i++) {
                assertTrue(t.check(limit, alice).allowed(), "call " + i);
            }
            assertFalse(t.check(limit, alice).allowed(), "the credit added 3, not more");
        }
    }

    @Test
    void aCreditOnOneServerEndsTheDenialEveryServerHolds() throws Exception {
        try (Engine a = server(true);
                Engine b = server(true)) {
            AdministrationTest.awaitListening(a);
            AdministrationTest.awaitListening(b);
            String mallory = client();
            for (int i = 0; i < 3; i++) {
                assertTrue(a.check("api", mallory).allowed());
            }
            assertFalse(b.check("api", mallory).allowed(), "denied by Redis, now held on b");
            assertEquals(1, a.admin().credit("api", mallory, 1));
            awaitHeard(b);
            assertTrue(b.check("api", mallory).allowed(), "b heard the credit and asked Redis");
            assertFalse(b.check("api", mallory).allowed(), "one token credited, one spent");
        }
    }

    @Test
    void anOverrideBeatsThePlanAndTheLimitOnEveryServer() {
        try (Engine a = server(true);
                Engine b = server(true)) {
            String vip = client();
            String other = client();
            a.admin().override("api", vip, ClientOverride.tokenBucket(5, 5, Duration.ofHours(1)), Duration.ofHours(1));
            ClientRules rules = b.admin().rules("api", vip);
            assertEquals(
                    ClientOverride.tokenBucket(5, 5, Duration.ofHours(1)),
                    rules.override().orElseThrow());
            assertTrue(rules.overrideLeft().compareTo(Duration.ofMinutes(59)) > 0, rules.toString());
            assertFalse(rules.blocked());
            for (int i = 0; i < 5; i++) {
                assertTrue(spend(b, "api", vip, i % 2 == 0 ? "pro" : null).allowed(), "call " + i);
            }
            assertFalse(spend(b, "api", vip, "pro").allowed(), "the override's 5, not the plan's 50");
            assertFalse(a.check("api", vip).allowed(), "on the other server too");
            for (int i = 0; i < 10; i++) {
                assertTrue(spend(a, "api", other, "pro").allowed(), "another client keeps its plan");
            }
            assertEquals(0, a.admin().peek("api", vip).remaining());
            assertTrue(a.admin().removeOverride("api", vip));
            assertFalse(a.admin().removeOverride("api", vip), "none left");
            assertEquals(ClientRules.NONE, a.admin().rules("api", vip));
        }
    }

    @Test
    void anOverrideEndsByItselfAndTheConfiguredPolicyDecidesAgain() throws Exception {
        try (Engine t = server(true)) {
            String guest = client();
            t.admin()
                    .override(
                            "api",
                            guest,
                            ClientOverride.tokenBucket(5, 0, Duration.ofSeconds(1)),
                            Duration.ofMillis(400));
            for (int i = 0; i < 5; i++) {
                assertTrue(t.check("api", guest).allowed(), "call " + i);
            }
            Decision denied = t.check("api", guest);
            assertFalse(denied.allowed());
            assertTrue(
                    denied.retryAfter().compareTo(Duration.ofMillis(400)) <= 0,
                    "the quota never refills, but the override ends within 400 ms: " + denied);
            try (Jedis j = redis.admin()) {
                long ttl = j.pttl(StoreKeys.DEFAULT.of("api", guest));
                assertTrue(
                        ttl > 3_590_000, "the bucket outlives the override until full by the limit's refill: " + ttl);
            }
            redis.elapse(Duration.ofMillis(450));
            assertEquals(ClientRules.NONE, t.admin().rules("api", guest));
            Decision after = t.check("api", guest);
            assertFalse(after.allowed(), "the limit's 3 at most, of which the override spent all");
            assertTrue(after.retryAfter().compareTo(Duration.ofMinutes(59)) > 0, "the limit's refill: " + after);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"api", "fw", "sw"})
    void anOverrideOfAWindowReplacesItsLimit(String limit) {
        try (Engine t = server(true)) {
            String vip = client();
            ClientOverride wide = limit.equals("api")
                    ? ClientOverride.tokenBucket(6, 6, Duration.ofHours(1))
                    : ClientOverride.window(6, Duration.ofHours(1));
            t.admin().override(limit, vip, wide, Duration.ofMinutes(5));
            for (int i = 0; i < 6; i++) {
                assertTrue(t.check(limit, vip).allowed(), "call " + i);
            }
            Decision denied = t.check(limit, vip);
            assertFalse(denied.allowed());
            assertTrue(denied.retryAfter().compareTo(Duration.ofMinutes(5)) <= 0, "until the override ends: " + denied);
            assertEquals(2, t.admin().credit(limit, vip, 2), "a credit up to the override's capacity");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"api", "fw", "sw"})
    void aBlockDeniesOnEveryServerForTheRestOfTheBlockAndSpendsNothing(String limit) throws Exception {
        try (Engine a = server(true);
                Engine b = server(true)) {
            AdministrationTest.awaitListening(b);
            String spammer = client();
            assertTrue(a.check(limit, spammer).allowed());
            a.admin().block(limit, spammer, Duration.ofMinutes(10));
            for (Engine t : List.of(a, b, b)) {
                Decision d = t.check(limit, spammer);
                assertFalse(d.allowed());
                assertEquals(0, d.remaining());
                assertTrue(d.retryAfter().compareTo(Duration.ofMinutes(9)) > 0, d.toString());
                assertTrue(d.retryAfter().compareTo(Duration.ofMinutes(10)) <= 0, d.toString());
            }
            Decision peek = a.admin().peek(limit, spammer);
            assertFalse(peek.allowed(), "a peek sees the block");
            assertTrue(a.admin().rules(limit, spammer).blocked());
            assertTrue(a.admin().unblock(limit, spammer));
            assertFalse(a.admin().unblock(limit, spammer), "no block left");
            awaitHeard(b);
            assertEquals(1, b.check(limit, spammer).remaining(), "b heard the unblock; the block spent nothing");
        }
    }

    @Test
    void aCallDeniedBesideAnOverriddenLimitGetsItsTokensBackUpToTheOverridesCapacity() {
        try (Engine t = server(true)) {
            String vip = client();
            t.admin()
                    .override("api", vip, ClientOverride.tokenBucket(10, 10, Duration.ofHours(1)), Duration.ofHours(1));
            for (int i = 0; i < 3; i++) {
                assertTrue(t.check("fw", vip).allowed());
            }
            Decision both = t.limiter()
                    .admit(List.of(t.charge("api", vip, null), t.charge("fw", vip, null)), Duration.ZERO)
                    .decision(1);
            assertFalse(both.allowed(), "the window is spent, so the call is denied and api's token given back");
            assertEquals(10, t.admin().peek("api", vip).remaining(), "back to the override's 10, not cut to 3");
        }
    }

    @Test
    void aWaitingCallDoesNotWaitOutABlock() throws Exception {
        try (Engine t = server(true)) {
            String spammer = client();
            t.admin().block("api", spammer, Duration.ofMinutes(1));
            Decision d = t.acquire("api", spammer, Duration.ofSeconds(5));
            assertFalse(d.allowed(), "denied at once: the block outlasts the wait");
            assertTrue(d.retryAfter().compareTo(Duration.ofSeconds(50)) > 0, d.toString());
        }
    }

    @Test
    void aBlockEndsByItself() throws Exception {
        try (Engine t = server(true)) {
            String spammer = client();
            t.admin().block("api", spammer, Duration.ofMillis(300));
            Decision d = t.check("api", spammer);
            assertFalse(d.allowed());
            assertTrue(d.retryAfter().compareTo(Duration.ofMillis(300)) <= 0, d.toString());
            redis.elapse(Duration.ofMillis(350));
            assertTrue(t.check("api", spammer).allowed(), "the held denial and the block both ended");
            assertFalse(t.admin().rules("api", spammer).blocked());
        }
    }

    @Test
    void aBlockAndAnOverrideLiveInOneKeyThatEndsWithTheLaterOfThem() {
        try (Engine t = server(true);
                Jedis j = redis.admin()) {
            String both = client();
            String key = StoreKeys.rules(StoreKeys.DEFAULT.of("api", both));
            t.admin().block("api", both, Duration.ofMinutes(1));
            t.admin()
                    .override(
                            "api", both, ClientOverride.tokenBucket(9, 9, Duration.ofMinutes(1)), Duration.ofHours(1));
            assertTrue(j.pttl(key) > 3_590_000, "the override's end");
            ClientRules rules = t.admin().rules("api", both);
            assertTrue(rules.blocked());
            assertTrue(rules.override().isPresent());
            assertFalse(t.check("api", both).allowed(), "a block beats an override");
            assertTrue(t.admin().unblock("api", both));
            assertEquals(8, t.check("api", both).remaining(), "then the override decides");
            assertTrue(t.admin().removeOverride("api", both));
            assertFalse(j.exists(key), "nothing left to keep");
        }
    }

    @Test
    void overridesAndBlocksThatCannotApplyAreRefused() {
        try (Engine t = server(true)) {
            assertThrows(IllegalArgumentException.class, () -> t.admin()
                    .override(
                            "fw", "x", ClientOverride.tokenBucket(5, 1, Duration.ofSeconds(1)), Duration.ofMinutes(1)));
            assertThrows(IllegalArgumentException.class, () -> t.admin()
                    .override("sw", "x", ClientOverride.window(10_001, Duration.ofSeconds(1)), Duration.ofMinutes(1)));
            assertThrows(IllegalArgumentException.class, () -> t.admin()
                    .override("api", "x", ClientOverride.tokenBucket(5, 5, Duration.ofSeconds(1)), Duration.ZERO));
            assertThrows(IllegalArgumentException.class, () -> t.admin().block("api", "x", Duration.ofDays(40_000)));
            assertThrows(IllegalArgumentException.class, () -> t.admin().credit("api", "x", 0));
            assertEquals(
                    "limit 'api': a credit must be from 1 to 9007199254740992 (2^53) tokens, but was 9007199254740993",
                    assertThrows(IllegalArgumentException.class, () -> t.admin()
                                    .credit("api", "x", dev.tollgate.LimitRules.MAX_COUNT + 1))
                            .getMessage(),
                    "a credit counts what a capacity may");
            assertThrows(dev.tollgate.TollgateConfigException.class, () -> t.admin()
                    .block("nope", "x", Duration.ofSeconds(1)));
            assertThrows(IllegalArgumentException.class, () -> new ClientOverride(0, 1, Duration.ofSeconds(1)));
            assertEquals(ClientRules.NONE, t.admin().rules("api", "x"), "nothing was written");
        }
    }

    @Test
    void inProcessTheOperatorsRulesNeedRedis() {
        try (Engine t = server(false)) {
            assertThrows(UnsupportedOperationException.class, () -> t.admin().credit("api", "x", 1));
            assertThrows(UnsupportedOperationException.class, () -> t.admin()
                    .override(
                            "api",
                            "x",
                            ClientOverride.tokenBucket(5, 5, Duration.ofSeconds(1)),
                            Duration.ofMinutes(1)));
            assertThrows(UnsupportedOperationException.class, () -> t.admin().block("api", "x", Duration.ofMinutes(1)));
            assertThrows(UnsupportedOperationException.class, () -> t.admin().unblock("api", "x"));
            assertThrows(UnsupportedOperationException.class, () -> t.admin().rules("api", "x"));
        }
    }

    private static void awaitHeard(Engine t) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!((Administration) t.admin()).heardSince(0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(((Administration) t.admin()).heardSince(0), "heard on " + Administration.CHANNEL);
    }
}
