package dev.tollgate.internal.ratelimit;

import dev.tollgate.CalendarPeriod;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The period starts a calendar quota's script chooses among ({@code calendar.lua}): the one before the
 * period of an instant, its own, and the two after it, in microseconds. The last ones computed are
 * kept while the instants asked about stay in the same period, so a call costs no {@code java.time}
 * arithmetic. One entry per calendar period configured (limits and plans): a bounded few.
 */
final class CalendarStarts {

    /** Periods before and after the one of the instant asked about. */
    static final int BEFORE = 1;

    static final int AFTER = 1;

    private final Map<CalendarPeriod, long[]> known = new ConcurrentHashMap<>();

    /** The starts around {@code nowMicros} of {@code period}, ascending. */
    long[] around(CalendarPeriod period, long nowMicros) {
        long[] k = known.get(period);
        if (k != null && k[BEFORE] <= nowMicros && nowMicros < k[BEFORE + 1]) {
            return k;
        }
        long[] starts = period.startsAround(instant(nowMicros), BEFORE, AFTER);
        known.put(period, starts);
        return starts;
    }

    static Instant instant(long micros) {
        return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000), Math.floorMod(micros, 1_000_000) * 1000L);
    }
}
