package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.RateLimiter;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RecordedCauses;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.UUID;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * Errors Redis answers with are not outages: a key of the wrong type degrades the calls on that key
 * alone, refused credentials degrade every call without opening the breaker; while a Redis that cannot
 * write (OOM under noeviction) keeps the breaker open, because the probe writes too. On a real Redis of
 * this class's own (its memory, users and passwords are changed).
 */
class NotAnOutageTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer("--maxmemory-policy", "noeviction");

    private final RecordedCauses causes = new RecordedCauses();

    private Engine tollgate(String url, String limit) {
        return Engine.builder(TestSettings.read(
                        "tollgate.redis.url",
                        url,
                        "tollgate.redis.timeout",
                        "1s",
                        "tollgate.limits." + limit + ".capacity",
                        "1000",
                        "tollgate.limits." + limit + ".refill-tokens",
                        "1"))
                .listener(causes)
                .build();
    }

    @Test
    void aKeyOfTheWrongTypeDegradesItsOwnCallsAndNeverOpensTheBreaker() {
        String limit = "typed-" + UUID.randomUUID();
        try (Engine tollgate = tollgate(redis.url(), limit);
                LogCapture log = new LogCapture(RateLimiter.class)) {
            try (Jedis j = redis.admin()) {
                j.rpush(StoreKeys.DEFAULT.of(limit, "bad"), "someone else's list");
            }
            for (int round = 0; round < 4; round++) {
                for (int i = 0; i < 5; i++) { // more than the breaker's 3 in a row
                    Decision bad = tollgate.check(limit, "bad");
                    assertTrue(bad.degraded() && bad.allowed(), "the limit's degraded decision (fail open): " + bad);
                }
                Decision good = tollgate.check(limit, "good");
                assertFalse(good.degraded(), "another key is asked as usual, round " + round);
                assertEquals(999 - round, good.remaining(), "exact on the good key");
            }
            assertFalse(tollgate.breakerState().orElseThrow().isOpen(), "20 data errors did not open the breaker");
            assertEquals(20, causes.count(DegradedCause.DATA_ERROR), causes.toString());
            assertEquals(4, causes.count("redis"), causes.toString());
            assertEquals(1, log.at(Level.WARNING).size(), "once per limit per minute: " + log.at(Level.WARNING));
            assertTrue(
                    log.at(Level.WARNING).get(0).contains("WRONGTYPE"),
                    log.at(Level.WARNING).get(0));
            assertTrue(log.oneLineEach(Level.WARNING), "no stack trace");
        }
    }

    @Test
    void aRedisThatCannotWriteKeepsTheBreakerOpenUntilItCan() throws Exception {
        String limit = "oom-" + UUID.randomUUID();
        try (Engine tollgate = tollgate(redis.url(), limit);
                LogCapture log = new LogCapture(RedisGuard.class)) {
            BreakerState guard = tollgate.breakerState().orElseThrow();
            assertFalse(tollgate.check(limit, "k").degraded());
            awaitWarmUpDone();
            config("maxmemory", "1");
            try {
                int openSamples = 0;
                long until = System.nanoTime() + Duration.ofMillis(2500).toNanos();
                while (System.nanoTime() < until) {
                    assertTrue(tollgate.check(limit, "k").degraded(), "Redis cannot write: degraded");
                    if (guard.isOpen()) {
                        openSamples++;
                    } else {
                        assertEquals(0, openSamples, "once open, the breaker stays open while Redis cannot write");
                    }
                    Thread.sleep(20);
                }
                assertTrue(openSamples > 0, "OOM on writes is an outage: the breaker opened");
                assertTrue(guard.probesSent() >= 5, "the probe kept asking: " + guard.probesSent());
                // Exactly 3 in a row open it (the warm-up, whose empty call would be a success between them, is
                // over); a flapping breaker would let 3 more through every half second.
                assertEquals(3, causes.count(DegradedCause.REFUSED), causes.toString());
                assertEquals(1, log.at(Level.WARNING).size(), "one WARNING, no flapping: " + log.at(Level.WARNING));
                assertEquals(0, log.at(Level.INFO).size(), "never 'answers again': " + log.at(Level.INFO));
            } finally {
                config("maxmemory", "0");
            }
            awaitClosed(guard);
            for (long end = System.nanoTime() + 1_000_000_000L;
                    log.at(Level.INFO).isEmpty() && System.nanoTime() < end; ) {
                Thread.sleep(10); // the line follows the state change
            }
            assertEquals(1, log.at(Level.INFO).size(), log.at(Level.INFO).toString());
            assertFalse(tollgate.check(limit, "k").degraded(), "decided by Redis again");
        }
    }

    /** A wrong password ({@code WRONGPASS}) and a user without the right to run scripts ({@code NOPERM}). */
    @ParameterizedTest
    @ValueSource(strings = {"wrong-password", "no-script-permission"})
    void refusedCredentialsAreNotAnOutage(String how) throws Exception {
        String user = "app-" + how;
        try (Jedis j = redis.admin()) {
            j.aclSetUser(user, "reset", "on", ">right", "~*", "+@all");
            if (how.equals("no-script-permission")) {
                j.aclSetUser(user, "-evalsha", "-eval", "-script");
            }
        }
        String password = how.equals("wrong-password") ? "wrong" : "right";
        String limit = "auth-" + UUID.randomUUID();
        String url = "redis://" + user + ":" + password + "@" + redis.host() + ":" + redis.port();
        try (Engine tollgate = tollgate(url, limit);
                LogCapture log = new LogCapture(RedisGuard.class)) {
            BreakerState guard = tollgate.breakerState().orElseThrow();
            for (int i = 0; i < 10; i++) {
                Decision d = tollgate.check(limit, "k");
                assertTrue(d.degraded() && d.allowed(), "call " + i + ": " + d);
            }
            assertFalse(guard.isOpen(), "refused credentials did not open the breaker");
            assertEquals(10, causes.count(DegradedCause.AUTH), causes.toString());
            assertTrue(
                    guard.authFailure().orElseThrow().contains(how.equals("wrong-password") ? "WRONGPASS" : "NO"),
                    guard.authFailure().toString());
            assertEquals(1, log.at(Level.SEVERE).size(), "one ERROR while it lasts: " + log.at(Level.SEVERE));
            assertFalse(log.at(Level.SEVERE).get(0).contains(password), "no password in the log");
            try (Jedis j = redis.admin()) {
                j.aclSetUser(user, ">wrong", "+@all");
            }
            Decision d = tollgate.check(limit, "k");
            assertFalse(d.degraded(), "the fixed credentials work at once: " + d);
            assertTrue(guard.authFailure().isEmpty());
            assertEquals(
                    1,
                    log.at(Level.INFO).stream()
                            .filter(l -> l.contains("credentials again"))
                            .count());
        }
    }

    @Test
    void countersAndLocksSeeTheCauseToo() {
        try (Engine tollgate = tollgate(redis.url(), "unused-" + UUID.randomUUID())) {
            try (Jedis j = redis.admin()) {
                j.hset("tollgate:counter:{typed-counter}", "a", "b");
            }
            for (int i = 0; i < 5; i++) {
                StoreUnavailableException e = org.junit.jupiter.api.Assertions.assertThrows(
                        StoreUnavailableException.class,
                        () -> tollgate.counters().increment("typed-counter", 1, Duration.ofMinutes(1)));
                assertEquals(DegradedCause.DATA_ERROR, e.degradedCause());
            }
            assertFalse(tollgate.breakerState().orElseThrow().isOpen());
            assertEquals(1, tollgate.counters().increment("other-counter", 1, Duration.ofMinutes(1)));
        }
    }

    private static void config(String name, String value) {
        try (Jedis j = redis.admin()) {
            j.configSet(name, value);
        }
    }

    /**
     * Until the guard's background warm-up has ended: its thread idle with nothing scheduled ({@code
     * WAITING}; {@code TIMED_WAITING} while a run is due). Only this test's Tollgate is open: the others'
     * threads have ended.
     */
    private static void awaitWarmUpDone() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!probeThreadsIdle() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(probeThreadsIdle(), "the warm-up ended within 10 s");
    }

    private static boolean probeThreadsIdle() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("tollgate-redis-probe") && t.isAlive())
                .allMatch(t -> t.getState() == Thread.State.WAITING);
    }

    private static void awaitClosed(BreakerState guard) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (guard.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(guard.isOpen(), "closed within 5 s of Redis writing again");
    }
}
