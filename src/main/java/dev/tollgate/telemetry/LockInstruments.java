package dev.tollgate.telemetry;

import static dev.tollgate.telemetry.Names.LOCK;
import static dev.tollgate.telemetry.Names.LOST_REASON;
import static dev.tollgate.telemetry.Names.RESULT;

import dev.tollgate.LockLost;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import java.util.Locale;

/**
 * Job runs under a lock, by result ({@code acquired}, {@code held_elsewhere}, {@code unavailable}), and
 * held locks found lost, by reason, as OpenTelemetry counters.
 */
final class LockInstruments implements LockMetrics, LockLostListener {

    private final LongCounter runs;
    private final LongCounter lost;

    LockInstruments(Meter meter) {
        runs = DecisionInstruments.counter(meter, Names.LOCK_RUNS, "{run}", "Job runs by whether they took the lock");
        lost = DecisionInstruments.counter(
                meter, Names.LOCK_LOST, "{lock}", "Held locks found lost: expired or taken while their holder ran");
    }

    @Override
    public void acquired(String lock) {
        run(lock, "acquired");
    }

    @Override
    public void heldElsewhere(String lock) {
        run(lock, "held_elsewhere");
    }

    @Override
    public void unavailable(String lock) {
        run(lock, "unavailable");
    }

    @Override
    public void lockLost(LockLost l) {
        lost.add(
                1,
                Attributes.of(LOCK, l.lockName(), LOST_REASON, l.reason().name().toLowerCase(Locale.ROOT)));
    }

    private void run(String lock, String result) {
        runs.add(1, Attributes.of(LOCK, lock, RESULT, result));
    }
}
