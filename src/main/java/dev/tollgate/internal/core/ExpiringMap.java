package dev.tollgate.internal.core;

import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * Per-key state kept in this JVM's memory, each entry with an expiry on an injected clock: the one
 * skeleton of every in-process store (limits, counters, locks). An update runs under the key's lock
 * and sees the entry only while it is live.
 *
 * <p>Each update also sweeps {@value #SWEEP_STEP} entries of a round over the map, dropping expired
 * ones, so no caller ever pays for a sweep of the whole map. A map built with a bound keeps the sum
 * of its entries' weights within it (keys can be chosen by clients, so a flood of fresh keys must not
 * fill the heap): over it, entries are evicted one at a time from a sample of {@value
 * #EVICTION_SAMPLE}, an expired one first, else the one updated longest ago (an approximated LRU, as
 * Redis's). Evicting a live entry forgets its state. A map {@linkplain #keepingLive built to keep live
 * entries} (lock and counter names: forgetting a held lock would let a second holder in) never evicts
 * one: over its bound it makes room only by dropping an expired entry of a sample, and refuses a new key
 * when it finds none ({@link Full}).
 *
 * @param <V> the state kept per key
 */
public final class ExpiringMap<V> {

    /** Entries looked at per update by the sweep. */
    static final int SWEEP_STEP = 2;

    /** Entries sampled to choose one to evict. */
    static final int EVICTION_SAMPLE = 16;

    private final ConcurrentHashMap<String, Slot<V>> entries = new ConcurrentHashMap<>();
    private final AtomicLong weight = new AtomicLong();
    private final ReentrantLock cursorLock = new ReentrantLock();
    private final MicrosClock clock;
    private final ToLongFunction<V> expiresAt;
    private final ToLongFunction<V> weightOf;
    private final long maxWeight;
    private final boolean keepLive;
    private Iterator<Slot<V>> cursor;

    /** An entry as of its last update: what the sweep and eviction read without the key's lock. */
    private record Slot<V>(String key, V state, long expiresAt, long weight, long updatedAt) {}

    /**
     * A map without a bound.
     *
     * @param expiresAt when an entry can be forgotten, in the clock's microseconds ({@link Long#MAX_VALUE}: never)
     */
    public ExpiringMap(MicrosClock clock, ToLongFunction<V> expiresAt) {
        this(clock, expiresAt, Long.MAX_VALUE, v -> 1);
    }

    /**
     * A map of at most {@code maxEntries} keys that never evicts a live entry: a new key over the bound
     * takes the place of an expired entry from a sample, or is refused with {@link Full}.
     */
    public static <V> ExpiringMap<V> keepingLive(MicrosClock clock, ToLongFunction<V> expiresAt, int maxEntries) {
        return new ExpiringMap<>(clock, expiresAt, maxEntries, v -> 1, true);
    }

    /**
     * A map whose entries' weights stay within {@code maxWeight}.
     *
     * @param weightOf how much of the bound an entry takes, at least 1
     */
    public ExpiringMap(MicrosClock clock, ToLongFunction<V> expiresAt, long maxWeight, ToLongFunction<V> weightOf) {
        this(clock, expiresAt, maxWeight, weightOf, false);
    }

    private ExpiringMap(
            MicrosClock clock,
            ToLongFunction<V> expiresAt,
            long maxWeight,
            ToLongFunction<V> weightOf,
            boolean keepLive) {
        if (maxWeight < 1) {
            throw new IllegalArgumentException("maxWeight must be >= 1, but was " + maxWeight);
        }
        this.clock = clock;
        this.expiresAt = expiresAt;
        this.maxWeight = maxWeight;
        this.weightOf = weightOf;
        this.keepLive = keepLive;
    }

    /** A map {@linkplain #keepingLive keeping live entries} is full of them: the new key was not added. */
    public static final class Full extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private Full(long maxEntries) {
            super("holds " + maxEntries + " live entries, the most it may", null, false, false);
        }
    }

    /** The new state of a key (null: forget it) and what the update answers. */
    public record Updated<V, R>(V state, R answer) {}

    /** One step on a key's state. */
    @FunctionalInterface
    public interface Step<V, R> {
        /** @param live the key's state, or null when it has none or it expired */
        Updated<V, R> apply(V live, long nowMicros);
    }

    /**
     * Runs {@code step} on {@code key}'s state atomically and returns its answer.
     *
     * @throws Full when the map keeps live entries, {@code key} is new and there is no room for it (the
     *     step did not run)
     */
    public <R> R update(String key, Step<V, R> step) {
        long now = clock.nowMicros();
        sweep(now);
        if (keepLive && weight.get() >= maxWeight && !entries.containsKey(key)) {
            evictExpired(now, key);
        }
        Object[] answer = new Object[1];
        boolean[] refused = {false};
        entries.compute(key, (k, slot) -> {
            // A new key of a map that keeps live entries takes its place before its step runs, so
            // concurrent updates never hold more than the bound.
            long reserved = keepLive && slot == null ? reserve() : 0;
            if (reserved < 0) {
                refused[0] = true;
                return null;
            }
            Updated<V, R> u;
            try {
                u = step.apply(slot == null || slot.expiresAt() <= now ? null : slot.state(), now);
            } catch (RuntimeException | Error e) {
                weight.addAndGet(-reserved);
                throw e;
            }
            answer[0] = u.answer();
            Slot<V> next = u.state() == null
                    ? null
                    : new Slot<>(k, u.state(), expiresAt.applyAsLong(u.state()), weightOf.applyAsLong(u.state()), now);
            weight.addAndGet((next == null ? 0 : next.weight()) - (slot == null ? 0 : slot.weight()) - reserved);
            return next;
        });
        if (refused[0]) {
            throw new Full(maxWeight);
        }
        while (!keepLive && weight.get() > maxWeight && evictOne(now, key)) {
            // one at a time, until within the bound
        }
        @SuppressWarnings("unchecked")
        R r = (R) answer[0];
        return r;
    }

    /** The key's state while it is live. */
    public Optional<V> get(String key) {
        Slot<V> slot = entries.get(key);
        return slot == null || slot.expiresAt() <= clock.nowMicros() ? Optional.empty() : Optional.of(slot.state());
    }

    /** The live entries' keys and states, as of now: O(entries), for an operator's listing. */
    public java.util.Map<String, V> live() {
        long now = clock.nowMicros();
        java.util.Map<String, V> live = new java.util.TreeMap<>();
        entries.values().forEach(slot -> {
            if (slot.expiresAt() > now) {
                live.put(slot.key(), slot.state());
            }
        });
        return live;
    }

    /** Entries held, expired or not. */
    public int size() {
        return entries.size();
    }

    /** The sum of the entries' weights. */
    public long weight() {
        return weight.get();
    }

    public void clear() {
        entries.clear();
        weight.set(0);
    }

    private void sweep(long now) {
        if (!cursorLock.tryLock()) {
            return; // another caller is sweeping: nobody waits for it
        }
        try {
            for (int i = 0; i < SWEEP_STEP; i++) {
                Slot<V> slot = next();
                if (slot != null && slot.expiresAt() <= now) {
                    removeIfExpired(slot.key(), now);
                }
            }
        } finally {
            cursorLock.unlock();
        }
    }

    /** One place for a new key: 1, or -1 when the map is full. */
    private long reserve() {
        for (long w = weight.get(); w < maxWeight; w = weight.get()) {
            if (weight.compareAndSet(w, w + 1)) {
                return 1;
            }
        }
        return -1;
    }

    /** Drops one expired entry of a sample, other than {@code keep}; false when the sample had none. */
    private boolean evictExpired(long now, String keep) {
        cursorLock.lock();
        try {
            for (int i = 0; i < EVICTION_SAMPLE; i++) {
                Slot<V> slot = next();
                if (slot != null
                        && !slot.key().equals(keep)
                        && slot.expiresAt() <= now
                        && removeIfExpired(slot.key(), now)) {
                    return true;
                }
            }
            return false;
        } finally {
            cursorLock.unlock();
        }
    }

    /** Evicts one entry other than {@code keep}; false when there is none to evict. */
    private boolean evictOne(long now, String keep) {
        cursorLock.lock();
        try {
            String oldest = null;
            long oldestUpdate = Long.MAX_VALUE;
            for (int i = 0; i < EVICTION_SAMPLE; i++) {
                Slot<V> slot = next();
                if (slot == null || slot.key().equals(keep)) {
                    continue;
                }
                if (slot.expiresAt() <= now && removeIfExpired(slot.key(), now)) {
                    return true;
                }
                if (slot.updatedAt() < oldestUpdate) {
                    oldest = slot.key();
                    oldestUpdate = slot.updatedAt();
                }
            }
            if (oldest == null) {
                return false;
            }
            remove(oldest);
            return true;
        } finally {
            cursorLock.unlock();
        }
    }

    /** The next entry of a round over the map, a new round begun at its end; null when it is empty. */
    private Slot<V> next() {
        if (cursor == null || !cursor.hasNext()) {
            cursor = entries.values().iterator();
            if (!cursor.hasNext()) {
                return null;
            }
        }
        return cursor.next();
    }

    /** Removes the key if it is still expired under its lock (an update may have revived it). */
    private boolean removeIfExpired(String key, long now) {
        boolean[] removed = {false};
        entries.computeIfPresent(key, (k, slot) -> {
            if (slot.expiresAt() > now) {
                return slot;
            }
            weight.addAndGet(-slot.weight());
            removed[0] = true;
            return null;
        });
        return removed[0];
    }

    private void remove(String key) {
        entries.computeIfPresent(key, (k, slot) -> {
            weight.addAndGet(-slot.weight());
            return null;
        });
    }
}
