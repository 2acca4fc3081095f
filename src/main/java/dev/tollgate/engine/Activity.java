package dev.tollgate.engine;

import dev.tollgate.Decision;
import dev.tollgate.ratelimit.DecisionListener;
import dev.tollgate.ratelimit.LimitSpec;
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
 */
final class Activity implements DecisionListener {

    static final int SLOTS = 30;
    static final int SLOT_SECONDS = 10;

    /** The outcomes counted, in the order of each slot's counts. */
    static final List<String> OUTCOMES = List.of("allowed", "denied", "degraded", "would_deny", "held");

    private static final long SLOT_NANOS = SLOT_SECONDS * 1_000_000_000L;

    private final LongSupplier nanoTime;
    private final long origin;
    private final Map<String, Series> series = new ConcurrentHashMap<>();

    Activity(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
        this.origin = nanoTime.getAsLong();
    }

    @Override
    public void onDecision(LimitSpec limit, Decision d, long nanos) {
        int outcome = d.degraded() ? 2 : d.allowed() ? 0 : limit.shadow() ? 3 : 1;
        series(limit).add(slot(), outcome);
    }

    @Override
    public void onHeldDenial(LimitSpec limit) {
        series(limit).add(slot(), 4);
    }

    private Series series(LimitSpec limit) {
        return series.computeIfAbsent(limit.name(), n -> new Series());
    }

    private long slot() {
        return (nanoTime.getAsLong() - origin) / SLOT_NANOS;
    }

    /**
     * Per limit, the counts of the last {@value #SLOTS} slots, oldest first, each {@link #OUTCOMES} long;
     * the slot under way last.
     */
    Map<String, List<long[]>> recent() {
        long now = slot();
        Map<String, List<long[]>> out = new TreeMap<>();
        series.forEach((name, s) -> out.put(name, s.recent(now)));
        return out;
    }

    /** One limit's ring of slots; a slot is reused once it is {@value #SLOTS} slots old. */
    private static final class Series {
        private final long[] slotOf = new long[SLOTS];
        private final AtomicLongArray counts = new AtomicLongArray(SLOTS * OUTCOMES.size());

        Series() {
            java.util.Arrays.fill(slotOf, -1);
        }

        synchronized void add(long slot, int outcome) {
            int i = (int) (slot % SLOTS);
            if (slotOf[i] != slot) {
                slotOf[i] = slot;
                for (int k = 0; k < OUTCOMES.size(); k++) {
                    counts.set(i * OUTCOMES.size() + k, 0);
                }
            }
            counts.incrementAndGet(i * OUTCOMES.size() + outcome);
        }

        synchronized List<long[]> recent(long now) {
            List<long[]> out = new ArrayList<>(SLOTS);
            for (long slot = now - SLOTS + 1; slot <= now; slot++) {
                long[] c = new long[OUTCOMES.size()];
                int i = (int) (Math.floorMod(slot, SLOTS));
                if (slot >= 0 && slotOf[i] == slot) {
                    for (int k = 0; k < c.length; k++) {
                        c[k] = counts.get(i * OUTCOMES.size() + k);
                    }
                }
                out.add(c);
            }
            return out;
        }
    }
}
