package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.Reservation;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * Issue 22, findings 1 and 2: a call's own input never admits it. A sliding window of 2,000 takes at most
 * 1,000 in one call ({@link Algorithm#largestCost()}): a call claiming 1,001 (a {@code @RateCost} the
 * client chose) is denied without asking the store, on a real Redis and in process, whether the limit
 * fails open or closed, and spends nothing; 1,000 is admitted. Before, Redis's script refused it with an
 * error reply, which the limit took for a damaged key: fail-open admitted every such call, fail-closed
 * answered 503, and the in-process store threw (a 500).
 */
class ImpossibleCostTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine build(boolean onRedis) {
        List<String> p = new ArrayList<>(List.of(
                "tollgate.limits.open.algorithm", "sliding-window",
                "tollgate.limits.open.capacity", "2000",
                "tollgate.limits.open.refill-period", "1h",
                "tollgate.limits.closed.algorithm", "sliding-window",
                "tollgate.limits.closed.capacity", "2000",
                "tollgate.limits.closed.refill-period", "1h",
                "tollgate.limits.closed.fail-open", "false",
                "tollgate.limits.wait.capacity", "1",
                "tollgate.limits.wait.refill-tokens", "1",
                "tollgate.limits.wait.refill-period", "1h"));
        if (onRedis) {
            p.addAll(List.of("tollgate.redis.url", redis.url()));
        }
        return Engine.build(TestSettings.read(p.toArray(String[]::new)));
    }

    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void aCostAboveWhatASlidingWindowTakesInOneCallIsNeverAdmitted(boolean onRedis) {
        try (Engine t = build(onRedis)) {
            List<String> outcomes = new ArrayList<>();
            for (String limit : List.of("open", "closed")) {
                String client = "client-" + UUID.randomUUID();
                int admitted = 0;
                int degraded = 0;
                int never = 0;
                for (int i = 0; i < 20; i++) {
                    Admission a = t.limiter()
                            .admit(List.of(t.charge(limit, client, null).costing(1001)), Duration.ZERO);
                    Decision d = a.decision(0);
                    admitted += a.allowed() ? 1 : 0;
                    degraded += d.degraded() ? 1 : 0;
                    never += d.retryAfter().equals(Decision.NEVER) ? 1 : 0;
                }
                outcomes.add(
                        limit + ": " + admitted + " admitted, " + degraded + " degraded, " + never + " never pass");
                if (onRedis) {
                    try (Jedis j = redis.admin()) {
                        assertFalse(
                                j.exists(StoreKeys.DEFAULT.of(Algorithm.SLIDING_WINDOW, limit, client)),
                                limit + ": Redis was not asked");
                    }
                }
                Admission most =
                        t.limiter().admit(List.of(t.charge(limit, client, null).costing(1000)), Duration.ZERO);
                assertTrue(most.allowed(), limit + ": 1,000 in one call is admitted");
                assertFalse(most.decision(0).degraded(), limit);
                assertEquals(1000, most.decision(0).remaining(), limit + ": the denied calls spent nothing");
            }
            assertEquals(
                    List.of(
                            "open: 0 admitted, 0 degraded, 20 never pass",
                            "closed: 0 admitted, 0 degraded, 20 never pass"),
                    outcomes,
                    "20 calls costing 1,001 under each limit");
        }
    }

    /**
     * A wait longer than the scripts count (2^53 µs, 285 years) waits that long at most: before, a
     * {@code maxWait} of a million days overflowed ({@code Duration.toNanos}) before the store was asked,
     * and the call got the degraded decision (fail-open: admitted at once) or, in process, an exception.
     */
    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void aWaitLongerThanTheScriptsCountIsDecidedByTheStore(boolean onRedis) {
        try (Engine t = build(onRedis)) {
            String client = "client-" + UUID.randomUUID();
            Duration ages = Duration.ofDays(1_000_000);
            assertTrue(
                    t.limiter()
                            .reserve(t.limit("wait"), client, ages)
                            .decision()
                            .allowed(),
                    "the one token");
            Reservation r = t.limiter().reserve(t.limit("wait"), client, ages);
            assertTrue(r.decision().allowed(), "reserved");
            assertFalse(r.decision().degraded(), "decided by the store");
            assertTrue(
                    r.delay().compareTo(Duration.ofMinutes(59)) > 0 && r.delay().compareTo(Duration.ofHours(1)) <= 0,
                    "waits for the next token: " + r.delay());
        }
    }
}
