package dev.tollgate.internal.lock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Counts outcomes per lock in memory, in the shape of {@code <kind>:<lock>}. */
final class CountingLockMetrics implements LockMetrics {

    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    @Override
    public void acquired(String lock) {
        counts.merge("acquired:" + lock, 1, Integer::sum);
    }

    @Override
    public void heldElsewhere(String lock) {
        counts.merge("heldElsewhere:" + lock, 1, Integer::sum);
    }

    @Override
    public void unavailable(String lock) {
        counts.merge("unavailable:" + lock, 1, Integer::sum);
    }

    Map<String, Integer> counts() {
        return Map.copyOf(counts);
    }
}
