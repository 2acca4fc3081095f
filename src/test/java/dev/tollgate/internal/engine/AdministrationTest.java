package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The operator's peek and reset on a real Redis, with two Tollgates on it standing for two servers. */
class AdministrationTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine server(boolean withRedis) {
        return Engine.build(TestSettings.read(
                "tollgate.redis.url", withRedis ? redis.url() : "",
                "tollgate.limits.api.capacity", "3",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1h",
                "tollgate.limits.api.shadow.capacity", "1",
                "tollgate.limits.fw.algorithm", "fixed-window",
                "tollgate.limits.fw.capacity", "3",
                "tollgate.limits.fw.refill-period", "1h",
                "tollgate.limits.sw.algorithm", "sliding-window",
                "tollgate.limits.sw.capacity", "3",
                "tollgate.limits.sw.refill-period", "1h"));
    }

    @Test
    void aPeekSpendsNothingForEveryAlgorithm() {
        redis.flushAll();
        try (Engine t = server(true)) {
            for (String limit : new String[] {"api", "fw", "sw"}) {
                assertEquals(3, t.admin().peek(limit, "alice").remaining(), limit + ": a fresh bucket");
                t.check(limit, "alice");
                t.check(limit, "alice");
                Decision first = t.admin().peek(limit, "alice");
                Decision second = t.admin().peek(limit, "alice");
                assertTrue(first.allowed(), limit);
                assertEquals(1, first.remaining(), limit);
                assertEquals(1, second.remaining(), limit + ": the peek spent nothing");
                assertTrue(t.check(limit, "alice").allowed(), limit + ": the last token is still there");
                Decision spent = t.admin().peek(limit, "alice");
                assertFalse(spent.allowed(), limit);
                // A token bucket's next token in 20 min; a window's end within the hour (a fixed window ends on
                // the hour's boundary).
                assertTrue(spent.retryAfter().compareTo(Duration.ZERO) > 0, limit + ": " + spent);
                assertTrue(spent.retryAfter().compareTo(Duration.ofHours(1)) <= 0, limit + ": " + spent);
                assertFalse(spent.degraded());
            }
        }
    }

    @Test
    void aResetOnOneServerEndsTheDenialEveryServerHolds() throws Exception {
        redis.flushAll();
        try (Engine a = server(true);
                Engine b = server(true)) {
            awaitListening(a);
            awaitListening(b);
            for (int i = 0; i < 3; i++) {
                assertTrue(a.check("api", "mallory").allowed());
            }
            assertFalse(a.check("api", "mallory").allowed(), "denied by Redis, now held on a");
            assertFalse(b.check("api", "mallory").allowed(), "denied by Redis, now held on b");
            assertTrue(a.admin().reset("api", "mallory"));
            assertTrue(a.check("api", "mallory").allowed(), "a full bucket on the server that reset it");
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!((Administration) b.admin()).heardSince(0) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(b.check("api", "mallory").allowed(), "b heard the reset and asked Redis");
            assertEquals(1, a.admin().peek("api", "mallory").remaining());
            assertFalse(a.admin().reset("api", "nobody"), "nothing to forget");
        }
    }

    @Test
    void unknownLimitsAndPeeksInProcess() {
        try (Engine t = server(false)) {
            assertThrows(TollgateConfigException.class, () -> t.admin().reset("nope", "x"));
            assertThrows(UnsupportedOperationException.class, () -> t.admin().peek("api", "x"));
            for (int i = 0; i < 3; i++) {
                t.check("api", "x");
            }
            assertFalse(t.check("api", "x").allowed());
            assertTrue(t.admin().reset("api", "x"));
            assertTrue(t.check("api", "x").allowed(), "in process too");
        }
    }

    static void awaitListening(Engine t) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!((Administration) t.admin()).listening() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(((Administration) t.admin()).listening(), "subscribed to " + Administration.CHANNEL);
    }
}
