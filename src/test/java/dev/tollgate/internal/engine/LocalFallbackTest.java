package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A limit with a local fallback, on a real Redis that is killed and restarted: while Redis cannot be
 * asked, this server's in-process bucket of its share decides (degraded, counted apart); once Redis
 * answers again, Redis decides.
 */
class LocalFallbackTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final AtomicInteger local = new AtomicInteger();
    private final AtomicInteger localDenied = new AtomicInteger();
    private Engine tollgate;

    @BeforeEach
    void build() throws Exception {
        tollgate = Engine.builder(TestSettings.read(
                        "tollgate.redis.url", redis.url(),
                        "tollgate.local-fallback-servers", "2",
                        "tollgate.limits.api.capacity", "6",
                        "tollgate.limits.api.refill-tokens", "1",
                        "tollgate.limits.api.refill-period", "1h",
                        "tollgate.limits.api.local-fallback", "true",
                        "tollgate.limits.open.capacity", "2",
                        "tollgate.limits.open.refill-tokens", "1",
                        "tollgate.limits.open.refill-period", "1h",
                        "tollgate.limits.closed.capacity", "2",
                        "tollgate.limits.closed.refill-tokens", "1",
                        "tollgate.limits.closed.refill-period", "1h",
                        "tollgate.limits.closed.fail-open", "false"))
                .listener(new DecisionListener() {
                    @Override
                    public void onDecision(LimitSpec limit, Decision decision, long nanos) {}

                    @Override
                    public void onLocalDecision(LimitSpec limit, Decision decision) {
                        local.incrementAndGet();
                        if (!decision.allowed()) {
                            localDenied.incrementAndGet();
                        }
                    }
                })
                .build();
    }

    @AfterEach
    void close() {
        tollgate.close();
    }

    @Test
    void whileRedisIsDeadTheLocalShareDecidesAndThenRedisAgain() throws Exception {
        assertTrue(tollgate.check("api", "c").allowed(), "Redis decides");
        redis.kill();
        int allowed = 0;
        for (int i = 0; i < 10; i++) {
            Decision d = tollgate.check("api", "c");
            assertTrue(d.degraded(), "call " + i + " is degraded");
            allowed += d.allowed() ? 1 : 0;
        }
        assertEquals(3, allowed, "this server's share: 6 / 2 servers");
        assertEquals(10, local.get());
        assertEquals(7, localDenied.get());
        for (int i = 0; i < 4; i++) {
            assertTrue(tollgate.check("open", "c").allowed(), "fail-open admits everything");
            assertFalse(tollgate.check("closed", "c").allowed(), "fail-closed admits nothing");
        }
        assertEquals(10, local.get(), "limits without a fallback are not counted as local");

        redis.restart();
        long deadline = System.nanoTime() + 10_000_000_000L;
        Decision d = tollgate.check("open", "probe");
        while (d.degraded() && System.nanoTime() < deadline) {
            Thread.sleep(50);
            d = tollgate.check("open", "probe-" + System.nanoTime());
        }
        assertFalse(d.degraded(), "Redis decides again once it answers");
        Decision back = tollgate.check("api", "c");
        assertFalse(back.degraded());
        assertTrue(back.allowed(), "the restarted Redis lost the bucket: Redis's count, not the local one");
        assertEquals(10, local.get());
    }

    private static int admitted(Engine t, String limit, int calls) {
        int allowed = 0;
        for (int i = 0; i < calls; i++) {
            Decision d = t.check(limit, "c");
            assertTrue(d.degraded(), limit + " call " + i + " is degraded");
            allowed += d.allowed() ? 1 : 0;
        }
        return allowed;
    }

    @Test
    void eachAlgorithmsShareIsItsCapacityOverTheServersAndATokenBucketRefillsAsManyTimesMoreSlowly() throws Exception {
        ManualClock clock = new ManualClock();
        try (Engine t = Engine.builder(TestSettings.read(
                        "tollgate.redis.url", redis.url(),
                        "tollgate.local-fallback-servers", "2",
                        "tollgate.limits.bucket.capacity", "6",
                        "tollgate.limits.bucket.refill-tokens", "1",
                        "tollgate.limits.bucket.refill-period", "1m",
                        "tollgate.limits.bucket.local-fallback", "true",
                        "tollgate.limits.fixed.algorithm", "fixed-window",
                        "tollgate.limits.fixed.capacity", "6",
                        "tollgate.limits.fixed.refill-period", "1m",
                        "tollgate.limits.fixed.local-fallback", "true",
                        "tollgate.limits.sliding.algorithm", "sliding-window",
                        "tollgate.limits.sliding.capacity", "6",
                        "tollgate.limits.sliding.refill-period", "1m",
                        "tollgate.limits.sliding.local-fallback", "true"))
                .clock(clock)
                .build()) {
            redis.kill();
            try {
                for (String limit : new String[] {"bucket", "fixed", "sliding"}) {
                    assertEquals(3, admitted(t, limit, 10), limit + ": this server's share, 6 / 2 servers");
                }
                // The bucket's own refill is a token a minute; its share's, a token every 2 minutes.
                clock.elapse(Duration.ofMinutes(1));
                assertEquals(0, admitted(t, "bucket", 3), "a minute: half a token, none to spend");
                clock.elapse(Duration.ofMinutes(1));
                assertEquals(1, admitted(t, "bucket", 3), "two minutes: one token");
                for (String limit : new String[] {"fixed", "sliding"}) {
                    assertEquals(3, admitted(t, limit, 10), limit + ": the share again in a later window");
                }
            } finally {
                redis.restart();
            }
        }
    }
}
