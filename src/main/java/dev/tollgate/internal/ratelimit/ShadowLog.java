package dev.tollgate.internal.ratelimit;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * One log line per shadow limit per minute at most: the first call it would deny, then how many it
 * would have denied since the line before. Never a line per call.
 */
final class ShadowLog {

    private static final Logger LOG = Logger.getLogger(ShadowLog.class.getName());
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final LongSupplier nanoTime;
    private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

    ShadowLog(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    /** Counts one call {@code limit} would have denied, and says so when a minute has passed. */
    void wouldDeny(LimitSpec limit) {
        long now = nanoTime.getAsLong();
        Tally t = tallies.computeIfAbsent(limit.name(), n -> new Tally(now - MINUTE_NANOS));
        t.count.incrementAndGet();
        long last = t.lastLine.get();
        if (now - last >= MINUTE_NANOS && t.lastLine.compareAndSet(last, now)) {
            long n = t.count.getAndSet(0);
            LOG.info(() -> "Tollgate: shadow limit '" + limit.name() + "' ("
                    + limit.policy().capacity() + " per "
                    + limit.policy().refillPeriod() + ", " + limit.algorithm().configName() + ") would have denied "
                    + n + (n == 1 ? " call" : " calls") + " since its last line; it denies nothing");
        }
    }

    private static final class Tally {
        final AtomicLong count = new AtomicLong();
        final AtomicLong lastLine;

        Tally(long lastLine) {
            this.lastLine = new AtomicLong(lastLine);
        }
    }
}
