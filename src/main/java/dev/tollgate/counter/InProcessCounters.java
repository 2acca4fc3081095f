package dev.tollgate.counter;

import dev.tollgate.core.ExpiringMap;
import dev.tollgate.core.MicrosClock;
import java.time.Duration;

/** Counters in this JVM's memory, with the expiry rule of {@link RedisCounters}; per server. */
public final class InProcessCounters implements Counters {

    private final ExpiringMap<Entry> counters;

    public InProcessCounters(MicrosClock clock) {
        this.counters = new ExpiringMap<>(clock, Entry::expiresAt);
    }

    @Override
    public long increment(String name, long by, Duration ttl) {
        CounterNames.check(name);
        long ttlMicros = CounterNames.ttlMillis(name, ttl) * 1000;
        return counters.update(name, (e, now) -> {
            Entry next =
                    e == null ? new Entry(by, now + ttlMicros) : new Entry(Math.addExact(e.value, by), e.expiresAt);
            return new ExpiringMap.Updated<>(next, next.value);
        });
    }

    @Override
    public long get(String name) {
        CounterNames.check(name);
        return counters.get(name).map(Entry::value).orElse(0L);
    }

    private record Entry(long value, long expiresAt) {}
}
