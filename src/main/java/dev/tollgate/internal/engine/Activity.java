package dev.tollgate.internal.engine;

import dev.tollgate.Decision;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * What this server's limits decided lately, per limit, in {@value #SLOTS} slots of {@value
 * #SLOT_SECONDS} s (five minutes), for the operator console: allowed, denied, degraded, would-deny
 * (shadow) and held (denied without asking Redis). Memory per limit is fixed; nothing per client.
 *
 * <p>A decision reads no clock: it is counted in the slot under way as of the last {@link #tick()},
 * which the engine runs every {@link #TICK} and every read runs first. So a decision made less than a
 * tick (and the ticking thread's lateness) after a slot began may be counted in the slot before; a
 * read always shows the slot under way.
 */
final class Activity implements DecisionListener {

    static final int SLOTS = 30;
    static final int SLOT_SECONDS = 10;

    /** How often the engine moves the slot under way on: a tenth of a slot. */
    static final Duration TICK = Duration.ofSeconds(1);

    private static final int OUTCOMES = ActivitySlot.OUTCOMES.size();
    private static final long SLOT_NANOS = SLOT_SECONDS * 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final long origin;
    private final Map<String, Series> series = new ConcurrentHashMap<>();

    /**
     * The series of limits seen lately, by the limit's identity (a reloaded limit is another object, of
     * the same name's series): a decision looks its limit's series up by name only when it is not here.
     * Direct-mapped and without a lock: a slot holds one immutable entry, and a lost one costs a lookup.
     */
    private final Seen[] seen = new Seen[MEMO];

    private static final int MEMO = 64;

    private record Seen(LimitSpec limit, Series series) {}

    /** The slot under way as of the last tick: the only time a decision reads. */
    private volatile long slot;

    Activity(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.origin = nanoTime.getAsLong();
    }

    /** Reads no decision's time. */
    @Override
    public boolean timesDecisions() {
        return false;
    }

    @Override
    public void onDecision(LimitSpec limit, Decision d, long nanos) {
        // Indexes of ActivitySlot.OUTCOMES.
        int outcome = d.degraded() ? 2 : d.allowed() ? 0 : limit.shadow() ? 3 : 1;
        series(limit).add(slot, outcome);
    }

    @Override
    public void onHeldDenial(LimitSpec limit) {
        series(limit).add(slot, 4);
    }

    /** Reads the clock and moves the slot under way on to it, if it has begun; never back. */
    synchronized void tick() {
        long now = (nanoTime.getAsLong() - origin) / SLOT_NANOS;
        if (now > slot) {
            slot = now;
        }
    }

    private Series series(LimitSpec limit) {
        int i = System.identityHashCode(limit) & (MEMO - 1);
        Seen seen = this.seen[i];
        if (seen != null && seen.limit() == limit) {
            return seen.series();
        }
        Series s = series.computeIfAbsent(limit.name(), n -> new Series());
        this.seen[i] = new Seen(limit, s);
        return s;
    }

    /** Per limit, the counts of the last {@value #SLOTS} slots, oldest first: the slot under way last. */
    Map<String, List<ActivitySlot>> recent() {
        tick();
        long now = slot;
        Map<String, List<ActivitySlot>> out = new TreeMap<>();
        series.forEach((name, s) -> out.put(name, s.recent(now)));
        return out;
    }

    /**
     * One limit's ring of slots; a slot is reused once it is {@value #SLOTS} slots old. Counting in the
     * slot under way takes no lock (every check counts, and a lock held by a thread the scheduler set
     * aside made every other check wait); only the first count of a new slot takes it, to clear the
     * reused slot's counts before announcing whose they are.
     */
    private static final class Series {
        private final AtomicLongArray slotOf = new AtomicLongArray(SLOTS);
        private final AtomicLongArray counts = new AtomicLongArray(SLOTS * OUTCOMES);

        Series() {
            for (int i = 0; i < SLOTS; i++) {
                slotOf.set(i, -1);
            }
        }

        void add(long slot, int outcome) {
            int i = (int) (slot % SLOTS);
            if (slotOf.get(i) != slot) {
                startSlot(i, slot);
            }
            counts.incrementAndGet(i * OUTCOMES + outcome);
        }

        /** Clears slot {@code i}'s counts, then names it {@code slot}: no count of {@code slot} is cleared. */
        private synchronized void startSlot(int i, long slot) {
            if (slotOf.get(i) == slot) {
                return;
            }
            for (int k = 0; k < OUTCOMES; k++) {
                counts.set(i * OUTCOMES + k, 0);
            }
            slotOf.set(i, slot);
        }

        synchronized List<ActivitySlot> recent(long now) {
            List<ActivitySlot> out = new ArrayList<>(SLOTS);
            for (long slot = now - SLOTS + 1; slot <= now; slot++) {
                int i = (int) (Math.floorMod(slot, SLOTS));
                out.add(slot >= 0 && slotOf.get(i) == slot ? counted(i) : ActivitySlot.EMPTY);
            }
            return out;
        }

        private ActivitySlot counted(int i) {
            int at = i * OUTCOMES;
            return new ActivitySlot(
                    counts.get(at), counts.get(at + 1), counts.get(at + 2), counts.get(at + 3), counts.get(at + 4));
        }
    }
}
