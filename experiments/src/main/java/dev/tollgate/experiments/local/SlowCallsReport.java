package dev.tollgate.experiments.local;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** The markdown of a run's slow single calls: their causes per check, what the counters add up to, each call. */
final class SlowCallsReport {

    private static final SlowCalls.Cause[] CAUSES = SlowCalls.Cause.values();

    private final List<String> labels;
    private final long callsPerCheck;
    private final SlowCalls.Block[][] blocks;
    private final SlowCalls.Cpu[] cpu;
    private final boolean countersRead;
    private final JvmEvents.Recorded jvm;
    private final long started;
    private final List<SlowCalls.Classified> overMs;
    private final List<SlowCalls.Classified> over100;

    /**
     * @param labels the checks' short names, in the order of {@code blocks} and {@code cpu}
     * @param jvm the safepoints and deoptimizations during the measuring
     * @param started when the measuring started ({@code nanoTime})
     */
    SlowCallsReport(
            List<String> labels,
            long callsPerCheck,
            List<SlowCalls.Call> slow,
            SlowCalls.Block[][] blocks,
            SlowCalls.Cpu[] cpu,
            boolean countersRead,
            JvmEvents.Recorded jvm,
            long started) {
        this.labels = labels;
        this.callsPerCheck = callsPerCheck;
        this.blocks = blocks;
        this.cpu = cpu;
        this.countersRead = countersRead;
        this.jvm = jvm;
        this.started = started;
        this.overMs = SlowCalls.classify(slow, blocks, jvm, 1_000_000);
        this.over100 = SlowCalls.classify(slow, blocks, jvm, 100_000);
    }

    /** The calls over 1 ms and over 100 µs per check by cause, the CPU time charged in bursts, the counters. */
    String causes() {
        StringBuilder md = new StringBuilder("## Calls over 1 ms and over 100 µs, by cause\n\n");
        md.append("Per single call the thread's CPU time is read too (`ThreadMXBean.getCurrentThreadCpuTime`, the"
                + " thread's CPU clock), before the first clock read and after the second, so the wall times above"
                + " are timed as without it; per block of 1,000 single calls the thread's `/proc/thread-self/schedstat`"
                + " (time on a CPU, time runnable but waiting on a run queue, timeslices), its page faults"
                + " (`/proc/thread-self/stat`), the interrupts and softirqs served by the CPU it ran on"
                + " (`/proc/interrupts`, `/proc/softirqs`; this kernel charges their time to the thread it"
                + " interrupts) and the collection count; and JFR records the JVM's safepoints and the thread's"
                + " deoptimizations (");
        md.append(
                jvm.recording()
                        ? "each safepoint's interval and VM operation, and whether a collection paused in it)."
                        : "**JFR was unavailable in this run: a collection is told by its block's count**).");
        md.append(" A call over the threshold is **own** when its CPU time alone reaches the threshold (the thread"
                + " was charged that much CPU time during it); otherwise it spent the rest off the CPU, and it is"
                + " **collection** when a safepoint with a collection's pause overlapped it, **other safepoint** when"
                + " another safepoint did, **descheduled** when it waited on a run queue so long that without that"
                + " wait it would not be over the threshold, and **unexplained** otherwise. A block's time off the"
                + " CPU (its wall time less its time on a CPU) is its run-queue wait plus time off the CPU and not"
                + " queued (asleep, or the vCPU taken by the host: steal); so at most the block's not-queued time of"
                + " a call's time off the CPU (its wall less its CPU time) was not run-queue wait, and the rest"
                + " was.\n\n");
        table(md, overMs, "1 ms", false);
        table(md, over100, "100 µs", true);
        charged(md);
        counters(md);
        return md.toString();
    }

    private void table(StringBuilder md, List<SlowCalls.Classified> over, String threshold, boolean faults) {
        md.append("| check | single calls | over ")
                .append(threshold)
                .append(" | own (CPU ≥ ")
                .append(threshold)
                .append(") | collection | other safepoint | descheduled | unexplained | ")
                .append(faults ? "the thread's page faults in its blocks of single calls" : "max CPU time of one call")
                .append(" |\n|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < labels.size(); i++) {
            long[] counts = new long[CAUSES.length];
            long total = 0;
            for (SlowCalls.Classified c : over) {
                if (c.call().check() == i) {
                    counts[c.cause().ordinal()]++;
                    total++;
                }
            }
            int check = i;
            long deoptimized = over.stream()
                    .filter(c -> c.call().check() == check && c.cause() == SlowCalls.Cause.OWN && c.deopt() != null)
                    .count();
            md.append(String.format("| %s | %,d | %d |", labels.get(i), callsPerCheck, total));
            for (SlowCalls.Cause cause : CAUSES) {
                md.append(' ').append(counts[cause.ordinal()]);
                if (cause == SlowCalls.Cause.OWN && deoptimized > 0) {
                    md.append(" (").append(deoptimized).append(" deoptimized)");
                }
                md.append(" |");
            }
            if (faults) {
                long n = 0;
                for (SlowCalls.Block b : blocks[i]) {
                    n += Math.max(0, b.faults());
                }
                md.append(String.format(" %,d |%n", n));
            } else {
                md.append(String.format(" %.1f µs |%n", cpu[i].max() / 1e3));
            }
        }
        md.append('\n');
    }

    /**
     * CPU time charged in bursts of 100 µs or more inside the timed calls (the calls told own at 100 µs) and
     * outside them (in the CPU-time reads, where none of the check's code runs), per second of each.
     */
    private void charged(StringBuilder md) {
        md.append("CPU time charged to the thread in bursts of 100 µs or more, inside the timed calls (the calls"
                + " told own at 100 µs, deoptimizations included) and outside them (a call's CPU time ≥ 100 µs, its wall time < 100 µs: the"
                + " burst fell in the CPU-time reads around the call, the same code for every row, where no"
                + " check runs):\n\n"
                + "| check | inside: bursts | time inside the timed calls | per second inside | outside: bursts |"
                + " time outside (the reads) | per second outside |\n"
                + "|---|---|---|---|---|---|---|\n");
        long outsideBursts = 0;
        long outsideNs = 0;
        for (int i = 0; i < labels.size(); i++) {
            int check = i;
            long inside = over100.stream()
                    .filter(c -> c.call().check() == check && c.cause() == SlowCalls.Cause.OWN)
                    .count();
            SlowCalls.Cpu c = cpu[i];
            outsideBursts += c.chargedOutside();
            outsideNs += c.outside();
            md.append(String.format(
                    "| %s | %d | %.3f s | %.1f | %d | %.3f s | %.1f |%n",
                    labels.get(i),
                    inside,
                    c.inside() / 1e9,
                    inside / Math.max(c.inside() / 1e9, 1e-9),
                    c.chargedOutside(),
                    c.outside() / 1e9,
                    c.chargedOutside() / Math.max(c.outside() / 1e9, 1e-9)));
        }
        double rate = outsideBursts / Math.max(outsideNs / 1e9, 1e-9);
        md.append(String.format(
                "%nOutside the calls, bursts came %.1f times per second (all rows together); at that rate the time"
                        + " inside each row's timed calls would see",
                rate));
        for (int i = 0; i < labels.size(); i++) {
            md.append(String.format(
                    "%s %s %.1f",
                    i == 0 ? "" : i == labels.size() - 1 ? " and" : ",", labels.get(i), rate * cpu[i].inside() / 1e9));
        }
        md.append(" (the counts in the table's second column).\n\n");
    }

    private void counters(StringBuilder md) {
        long all = 0;
        long waited = 0;
        long waitedNs = 0;
        long offNs = 0;
        List<Long> interrupts = new ArrayList<>();
        for (SlowCalls.Block[] perCheck : blocks) {
            for (SlowCalls.Block b : perCheck) {
                if (b.interrupts() >= 0) {
                    interrupts.add(b.interrupts());
                }
                all++;
                waited += b.runQueue() > 0 ? 1 : 0;
                waitedNs += Math.max(0, b.runQueue());
                offNs += b.onCpu() < 0 ? 0 : Math.max(0, b.wall() - b.onCpu());
            }
        }
        Set<SlowCalls.Block> withMs = Collections.newSetFromMap(new IdentityHashMap<>());
        long offCpu = 0;
        for (SlowCalls.Classified c : overMs) {
            withMs.add(c.block());
            offCpu += c.call().offCpu();
        }
        long withMsWait =
                withMs.stream().mapToLong(b -> Math.max(0, b.runQueue())).sum();
        if (countersRead) {
            md.append(String.format(
                    "The thread waited on a run queue in %,d of the %,d blocks of single calls, %.1f ms in all, of"
                            + " %.1f ms it spent off the CPU in them (their wall time less their time on a CPU); in the"
                            + " %d blocks with a call over 1 ms, %.2f ms, against %.2f ms those calls spent off the CPU.",
                    waited, all, waitedNs / 1e6, offNs / 1e6, withMs.size(), withMsWait / 1e6, offCpu / 1e6));
        } else {
            md.append("The thread's `/proc` counters were not readable in every block: no call is told descheduled.");
        }
        if (!interrupts.isEmpty()) {
            long[] sorted =
                    interrupts.stream().mapToLong(Long::longValue).sorted().toArray();
            md.append(String.format(
                    " Interrupts and softirqs on the thread's CPU per block of single calls: median %d, p99 %d, max %d.",
                    sorted[sorted.length / 2],
                    sorted[(int) Math.ceil(0.99 * sorted.length) - 1],
                    sorted[sorted.length - 1]));
        }
        if (jvm.recording()) {
            List<JvmEvents.Pause> pauses = jvm.pauses();
            Map<String, Long> others = new TreeMap<>();
            Map<String, Long> deopts = new TreeMap<>();
            for (JvmEvents.Deopt d : jvm.deopts()) {
                deopts.merge(d.method() + " (" + d.reason() + ")", 1L, Long::sum);
            }
            for (JvmEvents.Pause p : pauses) {
                if (!p.collection()) {
                    others.merge(p.operation(), 1L, Long::sum);
                }
            }
            md.append(String.format(
                    " Safepoints during the measuring: %d, %d of them with a collection, longest %.0f µs; the others:"
                            + " %s. The thread's deoptimizations during the measuring: %d, %d of them during a call"
                            + " over 100 µs: %s.",
                    pauses.size(),
                    pauses.stream().filter(JvmEvents.Pause::collection).count(),
                    pauses.stream().mapToLong(p -> p.end() - p.start()).max().orElse(0) / 1e3,
                    others.isEmpty() ? "none" : others.toString(),
                    jvm.deopts().size(),
                    over100.stream().filter(c -> c.deopt() != null).count(),
                    deopts.isEmpty() ? "none" : deopts.toString()));
        }
        md.append("\n\n");
    }

    /** One line per call over 1 ms, and per call over 100 µs told own: times, its block's counters, its cause. */
    String list() {
        List<SlowCalls.Classified> listed = new ArrayList<>(overMs);
        over100.stream()
                .filter(c -> c.cause() == SlowCalls.Cause.OWN && c.call().wall() <= 1_000_000)
                .forEach(listed::add);
        if (listed.isEmpty()) {
            return "";
        }
        listed.sort(Comparator.comparingLong(c -> c.call().start()));
        StringBuilder md = new StringBuilder("\n## Each call over 1 ms, and each over 100 µs told own\n\n");
        md.append("| check | round | at | wall | CPU | off the CPU | block: run-queue wait | block: off the CPU, not"
                + " queued | block: timeslices | block: page faults | block: interrupts on its CPU | block:"
                + " collections | overlapping safepoint | deoptimized during it | cause |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        int shown = 0;
        for (SlowCalls.Classified c : listed) {
            if (++shown > 100) {
                md.append(String.format("%n(%d more not listed.)%n", listed.size() - 100));
                break;
            }
            SlowCalls.Call call = c.call();
            SlowCalls.Block b = c.block();
            JvmEvents.Pause p = c.pause();
            JvmEvents.Deopt d = c.deopt();
            md.append(String.format(
                    "| %s | %d | %.1f s | %.1f µs | %.1f µs | %.1f µs | %s | %s | %s | %s | %s | %d | %s | %s | %s |%n",
                    labels.get(call.check()),
                    call.round(),
                    (call.start() - started) / 1e9,
                    call.wall() / 1e3,
                    call.cpu() / 1e3,
                    call.offCpu() / 1e3,
                    b.runQueue() < 0 ? "?" : String.format("%.1f µs", b.runQueue() / 1e3),
                    b.runQueue() < 0 ? "?" : String.format("%.1f µs", b.notQueued() / 1e3),
                    b.slices() < 0 ? "?" : Long.toString(b.slices()),
                    b.faults() < 0 ? "?" : Long.toString(b.faults()),
                    b.interrupts() < 0 ? "?" : Long.toString(b.interrupts()),
                    b.collections(),
                    p == null ? "none" : String.format("%s, %.1f µs", p.operation(), (p.end() - p.start()) / 1e3),
                    d == null ? "no" : d.method() + " (" + d.reason() + ")",
                    call.wall() > 1_000_000 ? c.cause().label : c.cause().label + " (at 100 µs)"));
        }
        return md.toString();
    }
}
