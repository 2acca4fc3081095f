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

    /**
     * The shortest a round of the sweep lasts, in the clock's microseconds: a round over a map this
     * small ends sooner, and the sweep rests until the rest of it has passed. Without it every update
     * of a map of a key or two starts a new iteration over it. A second: at a millisecond, every update
     * of a store asked less than a thousand times a second began a round (a new iterator over the map,
     * two entries looked at, a lock): a fifth of an in-process decision's time in a Liberty server
     * (JFR's samples of {@code /demo/hello}). An expired entry is never read as live, so one kept a
     * second longer costs only its memory, which the bound holds.
     */
    static final long SHORTEST_ROUND_MICROS = 1_000_000;

    private final ConcurrentHashMap<String, Slot<V>> entries = new ConcurrentHashMap<>();
    private final AtomicLong weight = new AtomicLong();
    private final ReentrantLock cursorLock = new ReentrantLock();
    private final MicrosClock clock;
    private final ToLongFunction<V> expiresAt;
    private final ToLongFunction<V> weightOf;
    private final long maxWeight;
    private final boolean keepLive;
    private Iterator<Slot<V>> cursor;
    private long roundStart; // guarded by cursorLock: when the round began
    private long restUntil = Long.MIN_VALUE; // read without a lock: a stale value rests or sweeps once more

    /**
     * A key's entry, updated in place under its own monitor (an update of a key already held takes no
     * lock of the map's and makes no entry). The sweep and eviction read its times and weight without
     * the monitor, to choose; they decide under it. Once removed from the map it is never used again:
     * an update that finds it removed looks the key up afresh.
     */
    private static final class Slot<V> {
        final String key;
        V state; // the fields: guarded by this
        long expiresAt;
        long weight;
        long updatedAt;
        boolean removed;

        Slot(String key) {
            this.key = key;
        }

        /** The state while it is live at {@code now}; null when it has expired. Holding the monitor. */
        V live(long now) {
            return expiresAt <= now ? null : state;
        }
    }

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
     * One step on a key's state that is kept and changed in place (a token bucket's): the map keeps the
     * state it hands the step, so the step makes no {@link Updated} (a hot key's update allocates nothing
     * of the map's).
     *
     * @param <A> what the step is given besides the state (a policy), so that it need capture nothing
     */
    public interface InPlace<V, A, R> {
        /** The state of a key that has none, or whose state expired. */
        V fresh(A arg, long nowMicros);

        /** Changes {@code state}, which the map then keeps, and answers. */
        R apply(V state, A arg, long nowMicros);
    }

    /**
     * Runs {@code step} on {@code key}'s state atomically and returns its answer.
     *
     * @throws Full when the map keeps live entries, {@code key} is new and there is no room for it (the
     *     step did not run)
     */
    public <R> R update(String key, Step<V, R> step) {
        return run(key, step, null, null);
    }

    /**
     * Runs {@code step} on {@code key}'s state (or a {@linkplain InPlace#fresh fresh} one) atomically, keeps
     * that state and returns the step's answer.
     *
     * @throws Full as {@link #update}
     */
    public <A, R> R updateInPlace(String key, InPlace<V, A, R> step, A arg) {
        return run(key, null, step, arg);
    }

    /** {@link #update} with {@code step}, or {@link #updateInPlace} with {@code inPlace} (one of them null). */
    private <A, R> R run(String key, Step<V, R> step, InPlace<V, A, R> inPlace, A arg) {
        long now = clock.nowMicros();
        sweep(now);
        if (keepLive && weight.get() >= maxWeight && !entries.containsKey(key)) {
            evictExpired(now, key);
        }
        R answer;
        while (true) {
            Slot<V> slot = entries.get(key);
            if (slot == null) {
                slot = new Slot<>(key);
                synchronized (slot) {
                    if (entries.putIfAbsent(key, slot) == null) {
                        answer = create(slot, step, inPlace, arg, now);
                        break;
                    }
                }
                continue; // another update made the key's entry first
            }
            synchronized (slot) {
                if (!slot.removed) {
                    answer = apply(slot, step, inPlace, arg, slot.live(now), now);
                    break;
                }
            }
        }
        while (!keepLive && weight.get() > maxWeight && evictOne(now, key)) {
            // one at a time, until within the bound
        }
        return answer;
    }

    /**
     * The step on a key new to the map, whose entry was just put in it, holding its monitor. A map that
     * keeps live entries reserves its place before the step runs, so concurrent updates never hold more
     * than the bound.
     */
    private <A, R> R create(Slot<V> slot, Step<V, R> step, InPlace<V, A, R> inPlace, A arg, long now) {
        long reserved = keepLive ? reserve() : 0;
        if (reserved < 0) {
            drop(slot);
            throw new Full(maxWeight);
        }
        slot.weight = reserved;
        try {
            return apply(slot, step, inPlace, arg, null, now);
        } catch (RuntimeException | Error e) {
            drop(slot);
            throw e;
        }
    }

    /**
     * Runs {@code step} (or {@code inPlace}) on the entry's live state and keeps the state it leaves,
     * holding the entry's monitor.
     */
    private <A, R> R apply(Slot<V> slot, Step<V, R> step, InPlace<V, A, R> inPlace, A arg, V live, long now) {
        V next;
        R answer;
        if (inPlace != null) {
            next = live != null ? live : inPlace.fresh(arg, now);
            answer = inPlace.apply(next, arg, now);
        } else {
            Updated<V, R> u = step.apply(live, now);
            next = u.state();
            answer = u.answer();
            if (next == null) {
                drop(slot);
                return answer;
            }
        }
        long w = weightOf.applyAsLong(next);
        if (w != slot.weight) {
            weight.addAndGet(w - slot.weight);
            slot.weight = w;
        }
        slot.state = next;
        slot.expiresAt = expiresAt.applyAsLong(next);
        slot.updatedAt = now;
        return answer;
    }

    /** Takes the entry out of the map, holding its monitor: an update waiting for it looks again. */
    private void drop(Slot<V> slot) {
        slot.removed = true;
        entries.remove(slot.key, slot);
        if (slot.weight != 0) {
            weight.addAndGet(-slot.weight);
            slot.weight = 0;
        }
    }

    /** The key's state while it is live. */
    public Optional<V> get(String key) {
        Slot<V> slot = entries.get(key);
        if (slot == null) {
            return Optional.empty();
        }
        long now = clock.nowMicros();
        synchronized (slot) {
            return slot.removed ? Optional.empty() : Optional.ofNullable(slot.live(now));
        }
    }

    /** The live entries' keys and states, as of now: O(entries), for an operator's listing. */
    public java.util.Map<String, V> live() {
        long now = clock.nowMicros();
        java.util.Map<String, V> live = new java.util.TreeMap<>();
        entries.values().forEach(slot -> {
            synchronized (slot) {
                V state = slot.removed ? null : slot.live(now);
                if (state != null) {
                    live.put(slot.key, state);
                }
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
        entries.values().forEach(slot -> {
            synchronized (slot) {
                if (!slot.removed) {
                    drop(slot);
                }
            }
        });
    }

    private void sweep(long now) {
        long rest = restUntil;
        if (now < rest && now >= rest - SHORTEST_ROUND_MICROS) {
            return; // resting (a clock stepped back ends the rest)
        }
        if (!cursorLock.tryLock()) {
            return; // another caller is sweeping: nobody waits for it
        }
        try {
            for (int i = 0; i < SWEEP_STEP; i++) {
                if (cursor != null && !cursor.hasNext() && now - roundStart < SHORTEST_ROUND_MICROS) {
                    restUntil = roundStart + SHORTEST_ROUND_MICROS;
                    cursor = null;
                    return;
                }
                Slot<V> slot = next(now);
                if (slot != null && slot.expiresAt <= now) {
                    removeIfExpired(slot, now);
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
                Slot<V> slot = next(now);
                if (slot != null && !slot.key.equals(keep) && slot.expiresAt <= now && removeIfExpired(slot, now)) {
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
            Slot<V> oldest = null;
            long oldestUpdate = Long.MAX_VALUE;
            for (int i = 0; i < EVICTION_SAMPLE; i++) {
                Slot<V> slot = next(now);
                if (slot == null || slot.key.equals(keep)) {
                    continue;
                }
                if (slot.expiresAt <= now && removeIfExpired(slot, now)) {
                    return true;
                }
                if (slot.updatedAt < oldestUpdate) {
                    oldest = slot;
                    oldestUpdate = slot.updatedAt;
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
    private Slot<V> next(long now) {
        if (cursor == null || !cursor.hasNext()) {
            cursor = entries.values().iterator();
            roundStart = now;
            if (!cursor.hasNext()) {
                return null;
            }
        }
        return cursor.next();
    }

    /** Removes the entry if it is still expired under its monitor (an update may have revived it). */
    private boolean removeIfExpired(Slot<V> slot, long now) {
        synchronized (slot) {
            if (slot.removed || slot.expiresAt > now) {
                return false;
            }
            drop(slot);
            return true;
        }
    }

    private void remove(Slot<V> slot) {
        synchronized (slot) {
            if (!slot.removed) {
                drop(slot);
            }
        }
    }
}
