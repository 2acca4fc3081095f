package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.TestSettings;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@code tollgate.breaker.*} in plain Java: Tollgate's own breaker opens after that many outages in a row. */
class BreakerSettingsTest {

    @Test
    void theConfiguredFailuresInARowOpenTheBreakerNotTheDefaultThree() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (Engine t = Engine.build(TestSettings.read(
                "tollgate.redis.url", "redis://127.0.0.1:" + closedPort,
                "tollgate.breaker.failures", "5",
                "tollgate.breaker.delay", "10m",
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "1"))) {
            BreakerState breaker = t.breakerState().orElseThrow();
            for (int i = 1; i <= 5; i++) {
                assertTrue(t.check("api", "k").degraded(), "refused " + i);
                assertFalse(breaker.isOpen(), "the breaker asked Redis for call " + i);
            }
            assertTrue(t.check("api", "k").degraded());
            assertTrue(breaker.isOpen(), "5 refused calls in a row opened it: the sixth was not asked");
        }
    }
}
