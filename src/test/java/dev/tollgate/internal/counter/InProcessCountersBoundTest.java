package dev.tollgate.internal.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Counter names can be made from what clients send ({@code "logins:" + user}): the in-process counters
 * keep at most their bound of names however many arrive, and never make room by resetting a live count
 * (a flood of names would reset the counts an application limits by).
 */
class InProcessCountersBoundTest {

    private static final int BOUND = 100;

    private final ManualClock clock = new ManualClock();
    private final InProcessCounters counters = new InProcessCounters(clock, BOUND);

    @Test
    void aFloodOfNamesIsRefusedPastTheBoundAndLiveCountsStay() {
        for (int i = 0; i < BOUND; i++) {
            counters.increment("kept-" + i, 5, Duration.ofHours(1));
        }
        int refused = 0;
        List<String> warnings;
        try (LogCapture log = new LogCapture(InProcessCounters.class)) {
            for (int i = 0; i < 10_000; i++) {
                try {
                    counters.increment("flood-" + i, 1, Duration.ofHours(1));
                } catch (StoreUnavailableException e) {
                    assertEquals(DegradedCause.SATURATED, e.degradedCause());
                    refused++;
                }
            }
            warnings = log.at(Level.WARNING);
        }
        for (int i = 0; i < BOUND; i++) {
            assertEquals(6, counters.increment("kept-" + i, 1, Duration.ofHours(1)), "kept-" + i + " kept its count");
        }
        assertTrue(counters.size() <= BOUND, "kept " + counters.size());
        assertEquals(10_000, refused);
        assertEquals(1, warnings.size(), "one WARNING while it lasts: " + warnings);
    }

    @Test
    void expiredCountersMakeRoom() {
        for (int i = 0; i < BOUND; i++) {
            counters.increment("short-" + i, 1, Duration.ofSeconds(1));
        }
        assertThrows(StoreUnavailableException.class, () -> counters.increment("late", 1, Duration.ofHours(1)));
        clock.elapse(Duration.ofSeconds(2));
        for (int i = 0; i < BOUND; i++) {
            assertEquals(1, counters.increment("new-" + i, 1, Duration.ofHours(1)));
        }
        assertTrue(counters.size() <= BOUND, "kept " + counters.size());
    }
}
