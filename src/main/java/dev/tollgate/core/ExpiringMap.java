package dev.tollgate.core;

import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

/**
 * Per-key state kept in this JVM's memory, each entry with an expiry on an injected clock: the one
 * skeleton of every in-process store (limits, counters, locks). An update runs under the key's lock
 * and sees the entry only while it is live; expired entries are swept in bulk every {@value
 * #SWEEP_EVERY} updates.
 *
 * @param <V> the state kept per key
 */
public final class ExpiringMap<V> {

    static final int SWEEP_EVERY = 4096;

    private final ConcurrentHashMap<String, V> entries = new ConcurrentHashMap<>();
    private final AtomicLong updates = new AtomicLong();
    private final MicrosClock clock;
    private final ToLongFunction<V> expiresAt;

    /** @param expiresAt when an entry can be forgotten, in the clock's microseconds ({@link Long#MAX_VALUE}: never) */
    public ExpiringMap(MicrosClock clock, ToLongFunction<V> expiresAt) {
        this.clock = clock;
        this.expiresAt = expiresAt;
    }

    /** The new state of a key (null: forget it) and what the update answers. */
    public record Updated<V, R>(V state, R answer) {}

    /** One step on a key's state. */
    @FunctionalInterface
    public interface Step<V, R> {
        /** @param live the key's state, or null when it has none or it expired */
        Updated<V, R> apply(V live, long nowMicros);
    }

    /** Runs {@code step} on {@code key}'s state atomically and returns its answer. */
    public <R> R update(String key, Step<V, R> step) {
        long now = clock.nowMicros();
        if (updates.incrementAndGet() % SWEEP_EVERY == 0) {
            entries.values().removeIf(v -> expired(v, now));
        }
        Object[] answer = new Object[1];
        entries.compute(key, (k, v) -> {
            Updated<V, R> u = step.apply(v == null || expired(v, now) ? null : v, now);
            answer[0] = u.answer();
            return u.state();
        });
        @SuppressWarnings("unchecked")
        R r = (R) answer[0];
        return r;
    }

    /** The key's state while it is live. */
    public Optional<V> get(String key) {
        V v = entries.get(key);
        return v == null || expired(v, clock.nowMicros()) ? Optional.empty() : Optional.of(v);
    }

    /** Entries held, expired or not. */
    public int size() {
        return entries.size();
    }

    public void clear() {
        entries.clear();
    }

    private boolean expired(V v, long now) {
        return expiresAt.applyAsLong(v) <= now;
    }
}
