package dev.tollgate.experiments.local;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Why a single call took long. Each slow call carries its thread's CPU time, read around its timing; each
 * block of single calls carries what the thread's scheduler counters and the collectors counted meanwhile;
 * the safepoints come from JFR. A call over a threshold is, in this order:
 *
 * <ul>
 *   <li>{@link Cause#OWN}: its thread CPU time alone reaches the threshold (the call computed that long);
 *   <li>{@link Cause#COLLECTION}: else, a safepoint in which a collection paused overlapped it (without JFR:
 *       a collection happened during its block);
 *   <li>{@link Cause#SAFEPOINT}: else, another safepoint overlapped it;
 *   <li>{@link Cause#DESCHEDULED}: else, it waited on a run queue (runnable, another thread on its CPU) so
 *       long that without that wait it would not be over the threshold. Per block, the thread's time off the
 *       CPU (the block's wall time less its time on a CPU) is its run-queue wait plus time it was off the CPU
 *       and not queued (asleep, as in a safepoint, or the vCPU taken by the host while the thread ran:
 *       steal, which the thread's CPU clock leaves out and no run queue counts). So of a call's time off the
 *       CPU (its wall less its CPU time) at most the block's not-queued time was not run-queue wait: the
 *       call is descheduled when its wall time less the rest is within the threshold. A run-queue wait
 *       outside the call (in the reads around it, say) is never counted for it;
 *   <li>{@link Cause#UNEXPLAINED}: none of these.
 * </ul>
 */
final class SlowCalls {

    /** The slowest calls kept: over 100 µs. */
    static final long KEPT_OVER = 100_000;

    enum Cause {
        OWN("own"),
        COLLECTION("collection"),
        SAFEPOINT("other safepoint"),
        DESCHEDULED("descheduled"),
        UNEXPLAINED("unexplained");

        final String label;

        Cause(String label) {
            this.label = label;
        }
    }

    /** One single call over {@link #KEPT_OVER}: its check, round, start ({@code nanoTime}), wall and CPU time. */
    record Call(int check, int round, long start, long wall, long cpu) {
        long offCpu() {
            return Math.max(0, wall - cpu);
        }
    }

    /**
     * One block of single calls: the thread's run-queue wait, CPU time and timeslices during it (-1 when
     * {@code schedstat} was unreadable), the collections that happened and its wall time (around the two
     * {@code schedstat} reads), all in ns.
     */
    record Block(long runQueue, long onCpu, long slices, long collections, long wall) {
        /** Time off the CPU and not on a run queue: asleep, or the host's (steal); 0 at least. */
        long notQueued() {
            return Math.max(0, wall - onCpu - runQueue);
        }
    }

    private SlowCalls() {}

    /**
     * Each call over {@code threshold}, in check, round and start order, with its cause.
     *
     * @param blocks per check and round
     * @param pauses the safepoints on {@code nanoTime}'s scale; with {@code pausesRecorded} false, a
     *     collection is told by the block's collection count
     */
    static List<Classified> classify(
            List<Call> calls, Block[][] blocks, List<Safepoints.Pause> pauses, boolean pausesRecorded, long threshold) {
        List<Call> over =
                new ArrayList<>(calls.stream().filter(c -> c.wall() > threshold).toList());
        over.sort(Comparator.comparingInt(Call::check)
                .thenComparingInt(Call::round)
                .thenComparingLong(Call::start));
        List<Classified> out = new ArrayList<>();
        for (Call c : over) {
            Block b = blocks[c.check()][c.round()];
            Safepoints.Pause pause = overlapping(pauses, c);
            Cause cause;
            if (c.cpu() >= threshold) {
                cause = Cause.OWN;
            } else if (pausesRecorded ? pause != null && pause.collection() : b.collections() > 0) {
                cause = Cause.COLLECTION;
            } else if (pause != null) {
                cause = Cause.SAFEPOINT;
            } else if (b.runQueue() >= 0 && c.wall() - Math.max(0, c.offCpu() - b.notQueued()) <= threshold) {
                cause = Cause.DESCHEDULED;
            } else {
                cause = Cause.UNEXPLAINED;
            }
            out.add(new Classified(c, b, pause, cause));
        }
        return out;
    }

    /** A call, its block, the safepoint that overlapped it (a collection's first), and its cause. */
    record Classified(Call call, Block block, Safepoints.Pause pause, Cause cause) {}

    private static Safepoints.Pause overlapping(List<Safepoints.Pause> pauses, Call c) {
        Safepoints.Pause found = null;
        for (Safepoints.Pause p : pauses) {
            if (p.start() >= c.start() + c.wall()) {
                break;
            }
            if (p.overlaps(c.start(), c.start() + c.wall()) && (found == null || p.collection())) {
                found = p;
            }
        }
        return found;
    }
}
