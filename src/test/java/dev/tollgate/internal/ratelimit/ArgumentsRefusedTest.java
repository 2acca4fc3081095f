package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.guard.NotAnOutageException;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A store that refuses a call's arguments means a bug (Java checks every call first): the call is
 * denied, never admitted, whatever the limit's degraded decision; one SEVERE line a minute per limit says
 * so, naming the limit and never the client key; the metrics count it a data error. Shown with the
 * real sliding-window script on a real Redis, and the in-process store, each behind a store that sends
 * what Java's checks would never send (the bug this guards against). Before, such a reply was a data
 * error like a damaged key, and fail-open admitted the call; in process it threw.
 */
class ArgumentsRefusedTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 2));
    }

    @AfterAll
    static void close() {
        link.close();
    }

    /** The bug: a store that spends more than the call costs, more than a sliding window takes in one call. */
    private record Overspending(RateLimitStore store) implements RateLimitStore {
        @Override
        public Decision tryConsume(LimitPolicy policy, String storeKey) {
            return spend(policy, storeKey).decision();
        }

        @Override
        public Spent spend(LimitPolicy policy, String storeKey) {
            return store.spend(policy.withCost(1001), storeKey);
        }

        @Override
        public boolean forget(String storeKey) {
            return store.forget(storeKey);
        }

        @Override
        public void refund(LimitPolicy policy, String storeKey, long mark) {
            store.refund(policy, storeKey, mark);
        }

        @Override
        public void close() {}
    }

    @ParameterizedTest(name = "on Redis: {0}")
    @ValueSource(booleans = {true, false})
    void aCallWhoseArgumentsTheStoreRefusesIsDeniedAndLoggedAsABug(boolean onRedis) {
        RateLimitStore real = onRedis
                ? RedisRateLimitStore.slidingWindow(link)
                : InProcessRateLimitStore.slidingWindow(MicrosClock.system());
        List<DegradedCause> causes = new CopyOnWriteArrayList<>();
        DecisionListener listener = new DecisionListener() {
            @Override
            public void onDecision(LimitSpec limit, Decision decision, long nanos) {}

            @Override
            public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
                causes.add(cause);
            }
        };
        RateLimiter limiter = new RateLimiter(
                Map.of(Algorithm.SLIDING_WINDOW, new Overspending(real)), Guard.DIRECT, listener, System::nanoTime);
        LimitSpec open = new LimitSpec(
                new LimitPolicy("buggy", 2000, 2000, Duration.ofHours(1), 1),
                Algorithm.SLIDING_WINDOW,
                new KeySpec.Global(),
                true);
        String client = "alice-secret-client-key";
        try (LogCapture log = new LogCapture(RateLimiter.class)) {
            for (int i = 0; i < 5; i++) {
                Decision d = limiter.check(open, client);
                assertFalse(d.allowed(), "call " + i + " is denied, though the limit fails open");
                assertEquals(Duration.ofSeconds(1), d.retryAfter());
                Admission a = limiter.admit(List.of(Charge.of(open, client)), Duration.ZERO);
                assertFalse(a.allowed(), "admit " + i);
            }
            List<String> severe = log.at(Level.SEVERE);
            assertEquals(1, severe.size(), "once a minute per limit: " + severe);
            assertTrue(severe.get(0).contains("limit 'buggy'") && severe.get(0).contains("bug"), severe.get(0));
            assertFalse(severe.get(0).contains(client), "no client key: " + severe.get(0));
            assertFalse(severe.get(0).contains(StoreKeys.clientHash(client)), "not even its hash: " + severe.get(0));
            assertEquals(List.of(), log.at(Level.WARNING), "not told as a damaged key");
        }
        assertEquals(10, causes.size());
        assertTrue(causes.stream().allMatch(c -> c == DegradedCause.DATA_ERROR), causes.toString());
    }

    /** However a guard wraps the refusal, it is recognised. */
    @Test
    void aRefusalIsRecognisedInsideWhatAGuardWrapsItIn() {
        ArgumentsRefusedException refused = new ArgumentsRefusedException("refused", null);
        assertTrue(ArgumentsRefusedException.in(new StoreUnavailableException(
                "Redis answered this call with an error",
                new NotAnOutageException(DegradedCause.DATA_ERROR, refused),
                DegradedCause.DATA_ERROR)));
        assertFalse(ArgumentsRefusedException.in(
                new StoreUnavailableException("timeout", new RuntimeException("x"), DegradedCause.TIMEOUT)));
    }
}
