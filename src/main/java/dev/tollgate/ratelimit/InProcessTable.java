package dev.tollgate.ratelimit;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;

/**
 * The in-process stores' state, one entry per store key, bounded: client keys can be chosen by
 * clients ({@code header:<Name>}, {@code @RateKey}), so without a bound a flood of fresh keys would
 * fill the heap.
 *
 * <p>Each call also sweeps a couple of entries, dropping those that can be forgotten (a full bucket,
 * an ended window, an empty log: forgetting them changes no decision), so no request ever pays for a
 * sweep of the whole table. When the entries' weight exceeds the bound, entries are evicted one at a
 * time from a small sample: one that can be forgotten first, else the one used longest ago (Redis's
 * approximated LRU). Evicting a bucket that is not full forgets what its client spent: under a flood
 * of keys a client may get a fresh bucket, never a lock-out and never an unbounded heap.
 */
final class InProcessTable<S extends InProcessTable.State> {

    /** A key's state; mutated only inside {@link #update}, under the map's lock for that key. */
    interface State {
        /** When forgetting this state changes no decision; {@link Long#MAX_VALUE}: never. */
        long forgettableAt();

        /** When it was last spent from or checked. */
        long lastUsed();

        /** How much of the bound it takes: 1, plus one per entry of a sliding log. */
        default long weight() {
            return 1;
        }
    }

    /** Entries looked at per call by the background-free sweep. */
    private static final int SWEEP_STEP = 2;

    /** Entries sampled to choose one to evict. */
    private static final int EVICTION_SAMPLE = 32;

    private final ConcurrentHashMap<String, S> states = new ConcurrentHashMap<>();
    private final AtomicLong weight = new AtomicLong();
    private final ReentrantLock cursorLock = new ReentrantLock();
    private final long maxWeight;
    private Iterator<Map.Entry<String, S>> cursor;

    InProcessTable(long maxWeight) {
        if (maxWeight < 1) {
            throw new IllegalArgumentException("maxWeight must be >= 1, but was " + maxWeight);
        }
        this.maxWeight = maxWeight;
    }

    /**
     * Replaces {@code key}'s state (null when absent or forgettable at {@code now}) by what {@code
     * change} makes of it, atomically for that key, then keeps the table within its bound.
     */
    void update(String key, long now, UnaryOperator<S> change) {
        sweep(now);
        states.compute(key, (k, old) -> {
            long before = old == null ? 0 : old.weight();
            S next = change.apply(old == null || old.forgettableAt() <= now ? null : old);
            weight.addAndGet((next == null ? 0 : next.weight()) - before);
            return next;
        });
        while (weight.get() > maxWeight && evictOne(now, key)) {
            // One at a time until within the bound.
        }
    }

    /** Keys held, forgettable or not. */
    int size() {
        return states.size();
    }

    /** The bound's units in use. */
    long weight() {
        return weight.get();
    }

    S get(String key) {
        return states.get(key);
    }

    void clear() {
        states.clear();
        weight.set(0);
    }

    private void sweep(long now) {
        if (!cursorLock.tryLock()) {
            return; // another caller is sweeping: nobody waits for it
        }
        try {
            for (int i = 0; i < SWEEP_STEP; i++) {
                Map.Entry<String, S> e = next();
                // A lock-free first look; the removal looks again under the key's lock.
                if (e != null && e.getValue().forgettableAt() <= now) {
                    removeIf(e.getKey(), s -> s.forgettableAt() <= now);
                }
            }
        } finally {
            cursorLock.unlock();
        }
    }

    /** Evicts one entry other than {@code keep}; false when there is none. */
    private boolean evictOne(long now, String keep) {
        cursorLock.lock();
        try {
            String oldest = null;
            long oldestUse = Long.MAX_VALUE;
            for (int i = 0; i < EVICTION_SAMPLE; i++) {
                Map.Entry<String, S> e = next();
                if (e == null || e.getKey().equals(keep)) {
                    continue;
                }
                S s = e.getValue();
                if (s.forgettableAt() <= now && removeIf(e.getKey(), x -> x.forgettableAt() <= now)) {
                    return true;
                }
                if (s.lastUsed() < oldestUse) {
                    oldest = e.getKey();
                    oldestUse = s.lastUsed();
                }
            }
            if (oldest == null) {
                return false;
            }
            removeIf(oldest, s -> true);
            return true;
        } finally {
            cursorLock.unlock();
        }
    }

    /** The next entry in a round over the table, starting a new round at its end; null when empty. */
    private Map.Entry<String, S> next() {
        if (cursor == null || !cursor.hasNext()) {
            cursor = states.entrySet().iterator();
            if (!cursor.hasNext()) {
                return null;
            }
        }
        return cursor.next();
    }

    private boolean removeIf(String key, Predicate<S> test) {
        boolean[] removed = {false};
        states.computeIfPresent(key, (k, s) -> {
            if (test.test(s)) {
                weight.addAndGet(-s.weight());
                removed[0] = true;
                return null;
            }
            return s;
        });
        return removed[0];
    }
}
