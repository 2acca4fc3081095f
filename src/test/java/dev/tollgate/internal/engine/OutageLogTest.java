package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The console's outages on a driven clock: what begins one, what ends one, what is counted and kept. */
class OutageLogTest {

    private final AtomicLong micros = new AtomicLong(1_700_000_000_000_000L);
    private final OutageLog log = new OutageLog(micros::get);
    private final LimitSpec limit = new LimitSpec(LimitPolicy.quota("api", 10), new KeySpec.Global(), true);
    private static final Decision ANSWERED = new Decision(true, 9, Duration.ZERO, Duration.ZERO, false);
    private static final Decision HELD = new Decision(false, 0, Duration.ofSeconds(1), Duration.ZERO, false);

    private void degraded(DegradedCause cause) {
        log.onDegraded(limit, Decision.degraded(true), cause, 0);
    }

    @Test
    void anOutageRunsFromTheFirstUnansweredDecisionToTheNextAnsweredOne() {
        long start = micros.get();
        degraded(DegradedCause.TIMEOUT);
        micros.addAndGet(1_500_000);
        degraded(DegradedCause.BREAKER_OPEN);
        degraded(DegradedCause.SATURATED);
        log.onHeldDenial(limit);
        log.onDecision(limit, HELD, 0);
        assertEquals(
                List.of(new RecentOutage(
                        Instant.ofEpochSecond(0, start * 1000), Duration.ofMillis(1500), 3, "timeout", true)),
                log.recent(),
                "a held denial is answered in process: it ends nothing");
        micros.addAndGet(500_000);
        log.onDecision(limit, ANSWERED, 0);
        log.onDecision(limit, ANSWERED, 0);
        assertEquals(
                List.of(new RecentOutage(
                        Instant.ofEpochSecond(0, start * 1000), Duration.ofSeconds(2), 3, "timeout", false)),
                log.recent());
    }

    @Test
    void aDataErrorOrAFullPoolAloneIsNoOutage() {
        degraded(DegradedCause.DATA_ERROR);
        degraded(DegradedCause.SATURATED);
        log.onDecision(limit, ANSWERED, 0);
        assertEquals(List.of(), log.recent());
    }

    @Test
    void theLastTenAreKeptNewestFirst() {
        for (int i = 0; i < 12; i++) {
            degraded(i % 2 == 0 ? DegradedCause.REFUSED : DegradedCause.AUTH);
            micros.addAndGet(1000 * (i + 1));
            log.onDecision(limit, ANSWERED, 0);
        }
        List<RecentOutage> kept = log.recent();
        assertEquals(OutageLog.KEPT, kept.size());
        assertEquals(Duration.ofMillis(12), kept.get(0).duration());
        assertEquals("auth", kept.get(0).cause());
        assertEquals(Duration.ofMillis(3), kept.get(9).duration());
    }
}
