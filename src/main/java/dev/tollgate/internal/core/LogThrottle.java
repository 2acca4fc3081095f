package dev.tollgate.internal.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/** At most one log line per subject (a limit, a kind of failure) per period: a line per state, not per request. */
public final class LogThrottle {

    /** The period of Tollgate's repeated lines: once a minute while a problem lasts. */
    public static final Duration MINUTE = Duration.ofMinutes(1);

    private final long periodNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Long> lastLogged = new ConcurrentHashMap<>();

    public LogThrottle(Duration period, LongSupplier nanoTime) {
        this.periodNanos = period.toNanos();
        this.nanoTime = nanoTime;
    }

    /** Whether a line about {@code subject} may be logged now (and if so, the period starts again). */
    public boolean allow(String subject) {
        long now = nanoTime.getAsLong();
        boolean[] allowed = {false};
        lastLogged.compute(subject, (k, last) -> {
            if (last == null || now - last >= periodNanos) {
                allowed[0] = true;
                return now;
            }
            return last;
        });
        return allowed[0];
    }

    /** Forgets {@code subject}: its next line is logged at once (the problem ended and may start again). */
    public void reset(String subject) {
        lastLogged.remove(subject);
    }
}
