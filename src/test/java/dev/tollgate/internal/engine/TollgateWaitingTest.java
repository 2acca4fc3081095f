package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.Permit;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The waiting and concurrency APIs as users get them from the composition root, in process. */
class TollgateWaitingTest {

    private final ManualClock clock = new ManualClock();
    private final List<Duration> slept = new ArrayList<>();
    private final Engine tollgate = Engine.builder(TestSettings.read(
                    "tollgate.limits.partner.capacity", "1",
                    "tollgate.limits.partner.refill-tokens", "2",
                    "tollgate.limits.partner.refill-period", "1s",
                    "tollgate.limits.window.algorithm", "sliding-window",
                    "tollgate.limits.window.capacity", "5",
                    "tollgate.concurrency.reports.max-in-flight", "2"))
            .clock(clock)
            .sleeper(slept::add)
            .build();

    @AfterEach
    void close() {
        tollgate.close();
    }

    @Test
    void acquireSleepsForItsTurnAndRefusesAWaitPastMaxWaitAtOnce() throws Exception {
        for (int i = 0; i <= 6; i++) {
            assertTrue(tollgate.acquire("partner", "*", Duration.ofSeconds(3)).allowed(), "call " + i);
        }
        Decision refused = tollgate.acquire("partner", "*", Duration.ofSeconds(3));
        assertFalse(refused.allowed());
        assertEquals(Duration.ofMillis(3500), refused.retryAfter());
        List<Duration> expected = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            expected.add(Duration.ofMillis(500L * i));
        }
        assertEquals(expected, slept, "the first at once, then one turn every 500 ms; the refused call not at all");
    }

    @Test
    void aWindowCannotBeWaitedFor() {
        assertThrows(IllegalArgumentException.class, () -> tollgate.acquire("window", "*", Duration.ofSeconds(1)));
    }

    @Test
    void concurrencyLimitsFromCode() throws Exception {
        Permit a = tollgate.tryEnter("reports", "*");
        Permit b = tollgate.tryEnter("reports", "*");
        Permit c = tollgate.tryEnter("reports", "*");
        assertTrue(a.admitted() && b.admitted());
        assertFalse(c.admitted());
        a.close();
        assertEquals("done", tollgate.run("reports", "*", () -> "done"));
        b.close();
    }
}
