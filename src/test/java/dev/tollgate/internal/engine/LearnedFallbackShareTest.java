package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The local fallback's share learned from the live servers ({@code tollgate.local-fallback-servers=auto},
 * the default): two and three engines on one Redis count each other by their heartbeat; once Redis is
 * frozen, each admits its share of the limit alone, so together they admit the limit (at most 1.1× it),
 * not each the whole of it. An explicit number still wins.
 */
class LearnedFallbackShareTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final int CAPACITY = 30;

    private static final AtomicLong TESTS = new AtomicLong();

    /**
     * Each test's servers under a key prefix of their own: a server closed while the breaker is open
     * cannot take itself out, and is counted until its beat expires.
     */
    private final String prefix = "share" + TESTS.incrementAndGet() + ":";

    private final DrivenScheduler heartbeat = new DrivenScheduler(new AtomicLong());
    private final List<Engine> engines = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        redis.resume();
        engines.forEach(Engine::close);
    }

    private Engine engine(String... more) {
        String[] base = {
            "tollgate.redis.url", redis.url(),
            "tollgate.redis.timeout", "100ms",
            "tollgate.redis.key-prefix", prefix,
            "tollgate.limits.api.capacity", Integer.toString(CAPACITY),
            "tollgate.limits.api.refill-tokens", "1",
            "tollgate.limits.api.refill-period", "1h",
            "tollgate.limits.api.local-fallback", "true"
        };
        Engine e = Engine.builder(TestSettings.read(
                        Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new)))
                .heartbeat(heartbeat)
                .build();
        engines.add(e);
        return e;
    }

    /** Every engine's calls while Redis is frozen, round robin: what they admitted together. */
    private int admittedWhileFrozen(int callsPerEngine) throws Exception {
        redis.pause();
        int admitted = 0;
        for (int i = 0; i < callsPerEngine; i++) {
            for (Engine e : engines) {
                Decision d = e.check("api", "client");
                assertTrue(d.degraded(), "Redis is frozen: the local fallback decides");
                admitted += d.allowed() ? 1 : 0;
            }
        }
        return admitted;
    }

    private void beat() {
        heartbeat.advance(Duration.ofSeconds(1));
        heartbeat.advance(Duration.ofSeconds(1));
    }

    @Test
    void twoServersTogetherAdmitTheLimitWhileRedisIsFrozen() throws Exception {
        engine();
        engine();
        beat();
        engines.forEach(e -> assertEquals(2, e.servers().live(), "the server count learned, not configured"));
        int admitted = admittedWhileFrozen(CAPACITY);
        assertTrue(admitted <= CAPACITY * 1.1, admitted + " admitted by two servers, limit " + CAPACITY);
        assertEquals(CAPACITY, admitted, "each its half");
    }

    @Test
    void threeServersTogetherAdmitTheLimitWhileRedisIsFrozen() throws Exception {
        engine();
        engine();
        engine();
        beat();
        engines.forEach(e -> assertEquals(3, e.servers().live(), "the server count learned, not configured"));
        int admitted = admittedWhileFrozen(CAPACITY);
        assertTrue(admitted <= CAPACITY * 1.1, admitted + " admitted by three servers, limit " + CAPACITY);
        assertEquals(CAPACITY, admitted, "each its third");
    }

    @Test
    void anExplicitServerCountWins() throws Exception {
        engine("tollgate.local-fallback-servers", "1");
        engine("tollgate.local-fallback-servers", "1");
        beat();
        engines.forEach(e -> assertEquals(2, e.servers().live()));
        assertEquals(2 * CAPACITY, admittedWhileFrozen(CAPACITY), "each server its whole limit, as told");
    }
}
