package dev.tollgate.internal.counter;

import dev.tollgate.Counters;
import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.core.LogThrottle;
import dev.tollgate.internal.core.MicrosClock;
import java.time.Duration;
import java.util.logging.Logger;

/**
 * Counters in this JVM's memory, with the expiry rule of {@link RedisCounters}; per server.
 *
 * <p>Bounded: names can be made from what clients send ({@code "logins:" + user}), so at most {@code
 * maxNames} counters are held. A live counter is never evicted (that would reset a count an application
 * may limit by): over the bound, a new name takes the place of an expired counter or is refused with a
 * {@link StoreUnavailableException} ({@link DegradedCause#SATURATED}), and a WARNING says so at most once
 * a minute while it lasts.
 */
public final class InProcessCounters implements Counters {

    /** Names held at most by default: 100,000, as the in-process rate-limit stores' keys. */
    public static final int DEFAULT_MAX_NAMES = 100_000;

    private static final Logger LOG = Logger.getLogger(InProcessCounters.class.getName());

    private final ExpiringMap<Entry> counters;
    private final int maxNames;
    private final LogThrottle fullLog;

    public InProcessCounters(MicrosClock clock) {
        this(clock, DEFAULT_MAX_NAMES);
    }

    /** Counters of which at most {@code maxNames} are held at once. */
    public InProcessCounters(MicrosClock clock, int maxNames) {
        this.counters = ExpiringMap.keepingLive(clock, Entry::expiresAt, maxNames);
        this.maxNames = maxNames;
        this.fullLog = new LogThrottle(LogThrottle.MINUTE, () -> clock.nowMicros() * 1000);
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        CounterNames.check(name);
        long ttlMicros = CounterNames.ttlMillis(name, ttl) * 1000;
        try {
            return counters.update(name, (e, now) -> {
                Entry next =
                        e == null ? new Entry(by, now + ttlMicros) : new Entry(Math.addExact(e.value, by), e.expiresAt);
                return new ExpiringMap.Updated<>(next, next.value);
            });
        } catch (ExpiringMap.Full full) {
            if (fullLog.allow("full")) {
                LOG.warning(() -> "Tollgate: the in-process counters hold " + maxNames + " live counters, the most"
                        + " they may: counter '" + name + "' and every other new name are refused until some expire");
            }
            throw new StoreUnavailableException(
                    "counter '" + name + "' refused: the in-process counters hold " + maxNames + " live counters",
                    full,
                    DegradedCause.SATURATED);
        }
    }

    @Override
    public long get(String name) {
        CounterNames.check(name);
        return counters.get(name).map(Entry::value).orElse(0L);
    }

    /** Counters held, expired or not (for tests of the bound). */
    int size() {
        return counters.size();
    }

    private record Entry(long value, long expiresAt) {}
}
