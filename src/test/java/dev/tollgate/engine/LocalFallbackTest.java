package dev.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.ratelimit.DecisionListener;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
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
    static final RedisServer redis = new RedisServer();

    private final AtomicInteger local = new AtomicInteger();
    private final AtomicInteger localDenied = new AtomicInteger();
    private Tollgate tollgate;

    @BeforeEach
    void build() throws Exception {
        tollgate = Tollgate.builder(TestSettings.read(
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
}
