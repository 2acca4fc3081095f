package dev.tollgate.counter;

import dev.tollgate.core.MicrosClock;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counters in this JVM's memory, with the expiry rule of {@link RedisCounters}; per server. */
public final class InProcessCounters implements Counters {

    private static final int SWEEP_EVERY = 4096;

    private final ConcurrentHashMap<String, Entry> counters = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final MicrosClock clock;

    public InProcessCounters(MicrosClock clock) {
        this.clock = clock;
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        CounterNames.key(name);
        long ttlMicros = CounterNames.ttlMillis(name, ttl) * 1000;
        long now = clock.nowMicros();
        if (calls.incrementAndGet() % SWEEP_EVERY == 0) {
            counters.values().removeIf(e -> e.expiresAt <= now);
        }
        return counters.compute(
                        name,
                        (k, e) -> e == null || e.expiresAt <= now
                                ? new Entry(by, now + ttlMicros)
                                : new Entry(Math.addExact(e.value, by), e.expiresAt))
                .value;
    }

    @Override
    public long get(String name) {
        CounterNames.key(name);
        Entry e = counters.get(name);
        return e == null || e.expiresAt <= clock.nowMicros() ? 0 : e.value;
    }

    private record Entry(long value, long expiresAt) {}
}
