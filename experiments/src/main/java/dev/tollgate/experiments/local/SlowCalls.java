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
     * One block of single calls: the thread's run-queue wait, CPU time (ns), timeslices and page faults, and
     * the interrupts and softirqs served by the CPU it ran on, during it (-1 when {@code /proc} was
     * unreadable), the collections that happened and its wall time (ns, around the reads of the counters).
     */
    record Block(long runQueue, long onCpu, long slices, long faults, long interrupts, long collections, long wall) {
        /** Time off the CPU and not on a run queue: asleep, or the host's (steal); 0 at least. */
        long notQueued() {
            return Math.max(0, wall - onCpu - runQueue);
        }
    }

    private SlowCalls() {}

    /**
     * What the CPU-time reads saw of one check's single calls: the most CPU time of one; the time inside the
     * timed calls and outside them (in the CPU-time reads around them: no code of the check's runs there),
     * both summed over the calls under 100 µs of wall and CPU time; and the calls whose CPU time reached 100
     * µs while their wall time stayed under it (the CPU time was charged outside the timed call).
     */
    record Cpu(long max, long inside, long outside, long chargedOutside) {}

    /**
     * Each call over {@code threshold}, in check, round and start order, with its cause.
     *
     * @param blocks per check and round
     * @param jvm the safepoints and deoptimizations on {@code nanoTime}'s scale; when not recorded, a
     *     collection is told by the block's collection count
     */
    static List<Classified> classify(List<Call> calls, Block[][] blocks, JvmEvents.Recorded jvm, long threshold) {
        List<JvmEvents.Pause> pauses = jvm.pauses();
        List<Call> over =
                new ArrayList<>(calls.stream().filter(c -> c.wall() > threshold).toList());
        over.sort(Comparator.comparingInt(Call::check)
                .thenComparingInt(Call::round)
                .thenComparingLong(Call::start));
        List<Classified> out = new ArrayList<>();
        for (Call c : over) {
            Block b = blocks[c.check()][c.round()];
            JvmEvents.Pause pause = overlapping(pauses, c);
            Cause cause;
            if (c.cpu() >= threshold) {
                cause = Cause.OWN;
            } else if (jvm.recording() ? pause != null && pause.collection() : b.collections() > 0) {
                cause = Cause.COLLECTION;
            } else if (pause != null) {
                cause = Cause.SAFEPOINT;
            } else if (b.runQueue() >= 0 && c.wall() - Math.max(0, c.offCpu() - b.notQueued()) <= threshold) {
                cause = Cause.DESCHEDULED;
            } else {
                cause = Cause.UNEXPLAINED;
            }
            out.add(new Classified(c, b, pause, deoptimized(jvm.deopts(), c), cause));
        }
        return out;
    }

    /**
     * A call, its block, the safepoint that overlapped it (a collection's first), the thread's first
     * deoptimization during it, and its cause.
     */
    record Classified(Call call, Block block, JvmEvents.Pause pause, JvmEvents.Deopt deopt, Cause cause) {}

    private static JvmEvents.Deopt deoptimized(List<JvmEvents.Deopt> deopts, Call c) {
        for (JvmEvents.Deopt d : deopts) {
            if (d.at() >= c.start() + c.wall()) {
                break;
            }
            if (d.at() >= c.start()) {
                return d;
            }
        }
        return null;
    }

    private static JvmEvents.Pause overlapping(List<JvmEvents.Pause> pauses, Call c) {
        JvmEvents.Pause found = null;
        for (JvmEvents.Pause p : pauses) {
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
