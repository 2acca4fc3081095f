package dev.tollgate.internal.engine;

import java.util.List;

/**
 * What one limit decided in one slot of {@link Tollgate#recentActivity()}: the console's counts.
 *
 * @param allowed calls it allowed, Redis answering
 * @param denied calls it denied
 * @param degraded calls decided without Redis (allowed or denied by the limit's fail-open setting)
 * @param wouldDeny calls a shadow limit would have denied (it denies nothing)
 * @param held calls denied from this server's memory of a denial, without asking Redis
 */
public record ActivitySlot(long allowed, long denied, long degraded, long wouldDeny, long held) {

    /** The outcomes' names, in the order of {@link #counts()}: the console's JSON names them so. */
    public static final List<String> OUTCOMES = List.of("allowed", "denied", "degraded", "would_deny", "held");

    static final ActivitySlot EMPTY = new ActivitySlot(0, 0, 0, 0, 0);

    /** The counts in the order of {@link #OUTCOMES}. */
    public long[] counts() {
        return new long[] {allowed, denied, degraded, wouldDeny, held};
    }
}
