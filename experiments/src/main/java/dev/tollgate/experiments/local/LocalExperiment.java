package dev.tollgate.experiments.local;

import dev.tollgate.Decision;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Issue 24: the in-process check ({@code Tollgate.check} built from settings without {@code
 * tollgate.redis.url}) against Bucket4j's local bucket's {@code tryConsume(1)}, one thread, one hot key,
 * both with a limit they never reach. Rounds alternate which goes first; each round times, for each, one
 * block of calls as a whole (its mean per call: the p50 is the median of the blocks, since one call is
 * shorter than a clock read is exact) and one block of calls each timed alone (p99, p99.9, max: the tail,
 * a clock read included, so beside them the same timing around nothing). Bytes allocated per call are the
 * thread's own ({@code ThreadMXBean.getThreadAllocatedBytes}), and the collectors' pauses during the run are
 * counted. Why a single call took over 100 µs is measured, not guessed: the thread's CPU time is read around
 * each single call's timing (outside it, so the wall times are as before), the thread's {@code
 * /proc/thread-self/schedstat} (time on a CPU, time waiting on a run queue, timeslices) and the collection
 * count around each block of single calls, and JFR records the JVM's safepoints; {@link SlowCalls} tells
 * from these whether the call computed that long itself, was stopped by a collection or another safepoint,
 * or waited for a CPU while another thread had it.
 */
public final class LocalExperiment {

    private static final long CAPACITY = 1_000_000_000L;
    private static final int BLOCK = 1_000;

    /** Keeps every answer alive, so the JIT removes no call. */
    private static long sink;

    private LocalExperiment() {}

    /** One check, its answer folded into a number; {@code label} names it in the list of slow calls. */
    private record Check(String name, String label, LongSupplier call) {}

    /** What a run measured of one check. */
    private record Row(
            String name,
            String label,
            double p50,
            double p99Block,
            long[] single,
            double bytesPerCall,
            long overWithoutCollection,
            long maxCpu) {
        double single(double p) {
            return Stats.percentile(single, p);
        }

        long over(long nanos) {
            return Arrays.stream(single).filter(t -> t > nanos).count();
        }
    }

    /** What a run measured: a row per check, and its single calls over 100 µs with their blocks. */
    private record Measured(List<Row> rows, List<SlowCalls.Call> slow, SlowCalls.Block[][] blocks, boolean sched) {}

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, Path.of("experiments/results/issue-24"));
        int at = o.rest().indexOf("--rounds");
        int rounds = at >= 0 ? Integer.parseInt(o.rest().get(at + 1)) : o.quick() ? 50 : 1_000;
        int warmup = o.quick() ? 200_000 : 3_000_000;
        String load = Environment.loadAverage();
        Safepoints safepoints = Safepoints.start();
        try (Tollgate tollgate = Tollgate.fromProperties(settings())) {
            Bucket bucket = Bucket.builder()
                    .addLimit(Bandwidth.builder()
                            .capacity(CAPACITY)
                            .refillGreedy(CAPACITY, Duration.ofSeconds(1))
                            .build())
                    .build();
            List<Check> checks = List.of(
                    new Check(
                            "Bucket4j " + bucket.getClass().getSimpleName() + ".tryConsume(1)",
                            "Bucket4j",
                            () -> bucket.tryConsume(1) ? 1 : 0),
                    new Check(
                            "Tollgate.check (in process, from settings)",
                            "Tollgate",
                            () -> answer(tollgate.check("hot", "client"))),
                    new Check("timing around nothing (the clock's floor)", "floor", () -> 1));
            for (int i = 0; i < warmup; i++) {
                for (Check c : checks) {
                    sink += c.call().getAsLong();
                }
            }
            long gcCount = gcCount();
            long gcMillis = gcMillis();
            long steal = stealTicks();
            long started = System.nanoTime();
            Measured m = measure(checks, rounds, safepoints);
            double seconds = (System.nanoTime() - started) / 1e9;
            long gcs = gcCount() - gcCount;
            long gcTime = gcMillis() - gcMillis;
            long stolen = steal < 0 ? -1 : stealTicks() - steal;
            List<Safepoints.Pause> pauses = safepoints.stop();
            String md =
                    report(o, m, rounds, gcs, gcTime, seconds, load, pauses, safepoints.recording(), stolen, started);
            Files.createDirectories(o.out());
            Files.writeString(o.out().resolve("local.md"), md);
            System.out.print(md);
            System.out.println("(sink " + (sink & 1) + ")");
        }
    }

    private static long answer(Decision d) {
        return d.allowed() ? d.remaining() : -1;
    }

    /** A limit no run reaches, on a key of its own. */
    private static Map<String, String> settings() {
        String p = "tollgate.limits.hot.";
        return Map.of(
                p + "capacity", Long.toString(CAPACITY),
                p + "refill-tokens", Long.toString(CAPACITY),
                p + "refill-period", "1s");
    }

    private static Measured measure(List<Check> checks, int rounds, Safepoints safepoints) throws IOException {
        int n = checks.size();
        double[][] blocks = new double[n][rounds];
        long[][] single = new long[n][rounds * BLOCK];
        long[] bytes = new long[n];
        long[] overWithoutCollection = new long[n];
        long[] maxCpu = new long[n];
        SlowCalls.Block[][] singleBlocks = new SlowCalls.Block[n][rounds];
        List<SlowCalls.Call> slow = new ArrayList<>();
        long[] starts = new long[BLOCK];
        long[] cpus = new long[BLOCK];
        long[] before = new long[3];
        long[] after = new long[3];
        long self = Thread.currentThread().getId();
        boolean schedRead = true;
        try (SchedStat sched = SchedStat.ofCurrentThread()) {
            for (int r = 0; r < rounds; r++) {
                safepoints.anchor();
                for (int k = 0; k < n; k++) {
                    int i = (k + r) % n; // who goes first rotates
                    LongSupplier call = checks.get(i).call();
                    long allocated = THREADS.getThreadAllocatedBytes(self);
                    blocks[i][r] = block(call) / (double) BLOCK;
                    bytes[i] += THREADS.getThreadAllocatedBytes(self) - allocated;
                    long collections = gcCount();
                    long began = System.nanoTime();
                    boolean read = sched.read(before);
                    singles(call, single[i], r * BLOCK, starts, cpus);
                    read &= sched.read(after);
                    long wall = System.nanoTime() - began;
                    long gcs = gcCount() - collections;
                    schedRead &= read;
                    singleBlocks[i][r] = read
                            ? new SlowCalls.Block(
                                    after[SchedStat.RUN_QUEUE] - before[SchedStat.RUN_QUEUE],
                                    after[SchedStat.ON_CPU] - before[SchedStat.ON_CPU],
                                    after[SchedStat.SLICES] - before[SchedStat.SLICES],
                                    gcs,
                                    wall)
                            : new SlowCalls.Block(-1, -1, -1, gcs, wall);
                    for (int j = 0; j < BLOCK; j++) {
                        long t = single[i][r * BLOCK + j];
                        maxCpu[i] = Math.max(maxCpu[i], cpus[j]);
                        if (t > SlowCalls.KEPT_OVER) {
                            slow.add(new SlowCalls.Call(i, r, starts[j], t, cpus[j]));
                        }
                        if (gcs == 0 && t > 1_000_000) {
                            overWithoutCollection[i]++;
                        }
                    }
                }
            }
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double[] b = blocks[i].clone();
            Arrays.sort(b);
            Arrays.sort(single[i]);
            rows.add(new Row(
                    checks.get(i).name(),
                    checks.get(i).label(),
                    b[b.length / 2],
                    b[(int) Math.ceil(0.99 * b.length) - 1],
                    single[i],
                    bytes[i] / (double) ((long) rounds * BLOCK),
                    overWithoutCollection[i],
                    maxCpu[i]));
        }
        return new Measured(rows, slow, singleBlocks, schedRead);
    }

    /** The nanoseconds of {@link #BLOCK} calls together. */
    private static long block(LongSupplier call) {
        long s = 0;
        long start = System.nanoTime();
        for (int j = 0; j < BLOCK; j++) {
            s += call.getAsLong();
        }
        long t = System.nanoTime() - start;
        sink += s;
        return t;
    }

    /**
     * {@link #BLOCK} calls each timed alone, into {@code out} from {@code at}; each call's start into {@code
     * starts} and the thread's CPU time around it into {@code cpus}. The CPU time is read outside the two clock
     * reads, so the wall time is the same window as without it, and the CPU time covers it and a little more.
     */
    private static void singles(LongSupplier call, long[] out, int at, long[] starts, long[] cpus) {
        long s = 0;
        for (int j = 0; j < BLOCK; j++) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            s += call.getAsLong();
            long end = System.nanoTime();
            cpus[j] = THREADS.getCurrentThreadCpuTime() - cpu;
            out[at + j] = end - start;
            starts[j] = start;
        }
        sink += s;
    }

    private static String report(
            Options o,
            Measured m,
            int rounds,
            long gcs,
            long gcMillis,
            double seconds,
            String load,
            List<Safepoints.Pause> pauses,
            boolean pausesRecorded,
            long stolenTicks,
            long started) {
        List<Row> rows = m.rows();
        Row b4j = rows.get(0);
        Row tg = rows.get(1);
        StringBuilder md = new StringBuilder("# Issue 24: the in-process check against Bucket4j's local bucket\n\n");
        md.append(String.format(
                "One thread, one hot key, a limit never reached (capacity and refill %,d per second). %,d rounds;"
                        + " in each, per check (who goes first rotates), one block of %,d calls timed as a whole"
                        + " (p50 and p99 of the blocks' mean per call) and %,d calls each timed alone (the tail: a clock"
                        + " read included, see the last row). Warmed up first.%n%n",
                CAPACITY, rounds, BLOCK, BLOCK));
        md.append(
                "| check | p50 (blocks) | p99 (blocks) | p99 (single) | p99.9 (single) | max (single) | calls > 100 µs"
                        + " | calls > 1 ms | of which with no collection in their block | bytes per call |\n"
                        + "|---|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(
                    "| %s | %.3f µs | %.3f µs | %.3f µs | %.3f µs | %.1f µs | %d | %d | %d | %.0f |%n",
                    r.name(),
                    r.p50() / 1000,
                    r.p99Block() / 1000,
                    r.single(99) / 1000,
                    r.single(99.9) / 1000,
                    r.single(100) / 1000,
                    r.over(100_000),
                    r.over(1_000_000),
                    r.overWithoutCollection(),
                    r.bytesPerCall()));
        }
        md.append(String.format(
                "%n**Tollgate ÷ Bucket4j at p50: %.2f×** (goal ≤ 2×); p99 (single) %.2f×; max %.1f µs against %.1f µs"
                        + " (goal: no millisecond outliers).%n%n",
                tg.p50() / b4j.p50(), tg.single(99) / b4j.single(99), tg.single(100) / 1000, b4j.single(100) / 1000));
        md.append(String.format(
                "Collections during the measured %.1f s: %d, %d ms in all (both checks' and the harness's allocation).%n%n",
                seconds, gcs, gcMillis));
        List<SlowCalls.Classified> overMs = SlowCalls.classify(m.slow(), m.blocks(), pauses, pausesRecorded, 1_000_000);
        List<SlowCalls.Classified> over100 = SlowCalls.classify(m.slow(), m.blocks(), pauses, pausesRecorded, 100_000);
        long ended = started + (long) (seconds * 1e9);
        List<Safepoints.Pause> during =
                pauses.stream().filter(p -> p.overlaps(started, ended)).toList();
        md.append(causes(m, overMs, over100, during, pausesRecorded, rounds));
        int at = o.rest().indexOf("--rounds");
        md.append("Command: `experiments/run local")
                .append(o.quick() ? " --quick" : "")
                .append(at >= 0 ? " --rounds " + o.rest().get(at + 1) : "")
                .append("`.\n\n");
        md.append("- date: ")
                .append(java.time.OffsetDateTime.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))
                .append('\n');
        md.append("- cpu: ").append(Environment.cpuModel()).append('\n');
        md.append("- cores: ")
                .append(Environment.cores())
                .append(" (this JVM may run on CPUs ")
                .append(Environment.allowedCpus())
                .append(")\n");
        md.append("- jvm: ")
                .append(System.getProperty("java.vm.name"))
                .append(' ')
                .append(System.getProperty("java.runtime.version"))
                .append(", ")
                .append(gcNames())
                .append('\n');
        md.append("- load average at start: ").append(load).append('\n');
        md.append("- load average at end: ").append(Environment.loadAverage()).append('\n');
        md.append("- the host's steal time during the measuring (both vCPUs, `/proc/stat`, in its 10 ms ticks): ")
                .append(stolenTicks < 0 ? "unknown" : stolenTicks * 10 + " ms")
                .append('\n');
        md.append(callsOverMs(overMs, over100, rows, started));
        return md.toString();
    }

    private static final SlowCalls.Cause[] CAUSES = SlowCalls.Cause.values();

    /** The calls over 1 ms and over 100 µs per check, by cause, and what the blocks' counters add up to. */
    private static String causes(
            Measured m,
            List<SlowCalls.Classified> overMs,
            List<SlowCalls.Classified> over100,
            List<Safepoints.Pause> pauses,
            boolean pausesRecorded,
            int rounds) {
        StringBuilder md = new StringBuilder("## Calls over 1 ms and over 100 µs, by cause\n\n");
        md.append("Per single call the thread's CPU time is read too (`ThreadMXBean.getCurrentThreadCpuTime`, the"
                + " thread's CPU clock), before the first clock read and after the second, so the wall times above"
                + " are timed as without it; per block of 1,000 single calls the thread's `/proc/thread-self/schedstat`"
                + " (time on a CPU, time runnable but waiting on a run queue, timeslices) and the collection count;"
                + " and JFR records the JVM's safepoints (");
        md.append(
                pausesRecorded
                        ? "each one's interval and VM operation, and whether a collection paused in it)."
                        : "**JFR was unavailable in this run: a collection is told by its block's count**).");
        md.append(" A call over the threshold is **own** when its CPU time alone reaches the threshold (the call"
                + " computed that long); otherwise it spent the rest off the CPU, and it is **collection** when a"
                + " safepoint with a collection's pause overlapped it, **other safepoint** when another safepoint"
                + " did, **descheduled** when it waited on a run queue so long that without that wait it would not be"
                + " over the threshold, and **unexplained** otherwise. A block's time off the CPU (its wall time less"
                + " its time on a CPU) is its run-queue wait plus time off the CPU and not queued (asleep, or the vCPU"
                + " taken by the host: steal); so at most the block's not-queued time of a call's time off the CPU"
                + " (its wall less its CPU time) was not run-queue wait, and the rest was.\n\n");
        table(md, m.rows(), overMs, "1 ms", rounds);
        table(md, m.rows(), over100, "100 µs", rounds);

        SlowCalls.Block[][] blocks = m.blocks();
        long all = 0;
        long waited = 0;
        long waitedNs = 0;
        long offNs = 0;
        for (SlowCalls.Block[] perCheck : blocks) {
            for (SlowCalls.Block b : perCheck) {
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
        if (m.sched()) {
            md.append(String.format(
                    "The thread waited on a run queue in %,d of the %,d blocks of single calls, %.1f ms in all, of"
                            + " %.1f ms it spent off the CPU in them (their wall time less their time on a CPU); in the"
                            + " %d blocks with a call over 1 ms, %.2f ms, against %.2f ms those calls spent off the CPU.",
                    waited, all, waitedNs / 1e6, offNs / 1e6, withMs.size(), withMsWait / 1e6, offCpu / 1e6));
        } else {
            md.append("`/proc/thread-self/schedstat` was not readable in every block: no call is told descheduled.");
        }
        long collecting = pauses.stream().filter(Safepoints.Pause::collection).count();
        Map<String, Long> others = new TreeMap<>();
        for (Safepoints.Pause p : pauses) {
            if (!p.collection()) {
                others.merge(p.operation(), 1L, Long::sum);
            }
        }
        if (pausesRecorded) {
            md.append(String.format(
                    " Safepoints during the measuring: %d, %d of them with a collection, longest %.0f µs;"
                            + " the others: %s.",
                    pauses.size(),
                    collecting,
                    pauses.stream().mapToLong(p -> p.end() - p.start()).max().orElse(0) / 1e3,
                    others.isEmpty() ? "none" : others.toString()));
        }
        md.append("\n\n");
        return md.toString();
    }

    private static void table(
            StringBuilder md, List<Row> rows, List<SlowCalls.Classified> over, String threshold, int rounds) {
        md.append("| check | single calls | over ")
                .append(threshold)
                .append(" | own (CPU ≥ ")
                .append(threshold)
                .append(") | collection | other safepoint | descheduled | unexplained | max CPU time of one call |\n")
                .append("|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < rows.size(); i++) {
            long[] counts = new long[CAUSES.length];
            long total = 0;
            for (SlowCalls.Classified c : over) {
                if (c.call().check() == i) {
                    counts[c.cause().ordinal()]++;
                    total++;
                }
            }
            md.append(String.format("| %s | %,d | %d |", rows.get(i).label(), (long) rounds * BLOCK, total));
            for (long n : counts) {
                md.append(' ').append(n).append(" |");
            }
            md.append(String.format(" %.1f µs |%n", rows.get(i).maxCpu() / 1e3));
        }
        md.append('\n');
    }

    /**
     * One line per call over 1 ms, and per call over 100 µs told own: its times, its block's counters, the
     * safepoint that overlapped it, its cause.
     */
    private static String callsOverMs(
            List<SlowCalls.Classified> overMs, List<SlowCalls.Classified> over100, List<Row> rows, long started) {
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
                + " queued | block: timeslices | block: collections | overlapping safepoint | cause |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        int shown = 0;
        for (SlowCalls.Classified c : listed) {
            if (++shown > 100) {
                md.append(String.format("%n(%d more not listed.)%n", listed.size() - 100));
                break;
            }
            SlowCalls.Call call = c.call();
            SlowCalls.Block b = c.block();
            Safepoints.Pause p = c.pause();
            md.append(String.format(
                    "| %s | %d | %.1f s | %.1f µs | %.1f µs | %.1f µs | %s | %s | %s | %d | %s | %s |%n",
                    rows.get(call.check()).label(),
                    call.round(),
                    (call.start() - started) / 1e9,
                    call.wall() / 1e3,
                    call.cpu() / 1e3,
                    call.offCpu() / 1e3,
                    b.runQueue() < 0 ? "?" : String.format("%.1f µs", b.runQueue() / 1e3),
                    b.runQueue() < 0 ? "?" : String.format("%.1f µs", b.notQueued() / 1e3),
                    b.slices() < 0 ? "?" : Long.toString(b.slices()),
                    b.collections(),
                    p == null ? "none" : String.format("%s, %.1f µs", p.operation(), (p.end() - p.start()) / 1e3),
                    c.call().wall() > 1_000_000 ? c.cause().label : c.cause().label + " (at 100 µs)"));
        }
        return md.toString();
    }

    /** The host's steal time so far, summed over the CPUs ({@code /proc/stat}, in USER_HZ ticks), or -1. */
    private static long stealTicks() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            return f.length > 8 ? Long.parseLong(f[8]) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private static final List<GarbageCollectorMXBean> COLLECTORS = ManagementFactory.getGarbageCollectorMXBeans();

    /** Collections so far; read around each block of single calls, so no loop of its own allocates. */
    private static long gcCount() {
        long n = 0;
        for (int i = 0; i < COLLECTORS.size(); i++) {
            n += COLLECTORS.get(i).getCollectionCount();
        }
        return n;
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime)
                .sum();
    }

    private static String gcNames() {
        return String.join(
                ", ",
                ManagementFactory.getGarbageCollectorMXBeans().stream()
                        .map(GarbageCollectorMXBean::getName)
                        .toList());
    }
}
