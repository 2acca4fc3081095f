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
import java.util.List;
import java.util.Map;
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
 * each single call's timing (outside it, so the wall times are as before), the thread's kernel counters
 * ({@link ThreadCounters}: time on a CPU, time waiting on a run queue, timeslices, page faults), the
 * interrupts its CPU served ({@link CpuInterrupts}) and the collection count around each block of single
 * calls, and JFR records the JVM's safepoints; {@link SlowCalls} tells from these whether the call computed
 * that long itself, was stopped by a collection or another safepoint, or waited for a CPU while another
 * thread had it.
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
            SlowCalls.Cpu cpu) {
        double single(double p) {
            return Stats.percentile(single, p);
        }

        long over(long nanos) {
            return Arrays.stream(single).filter(t -> t > nanos).count();
        }
    }

    /** What a run measured: a row per check, and its single calls over 100 µs with their blocks. */
    private record Measured(
            List<Row> rows, List<SlowCalls.Call> slow, SlowCalls.Block[][] blocks, boolean countersRead) {}

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, Path.of("experiments/results/issue-24"));
        int at = o.rest().indexOf("--rounds");
        int rounds = at >= 0 ? Integer.parseInt(o.rest().get(at + 1)) : o.quick() ? 50 : 1_000;
        int warmup = o.quick() ? 200_000 : 3_000_000;
        String load = Environment.loadAverage();
        JvmEvents jvm = JvmEvents.start();
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
            Measured m = measure(checks, rounds, jvm);
            double seconds = (System.nanoTime() - started) / 1e9;
            long gcs = gcCount() - gcCount;
            long gcTime = gcMillis() - gcMillis;
            long stolen = steal < 0 ? -1 : stealTicks() - steal;
            JvmEvents.Recorded events = jvm.stop();
            String md = report(o, m, rounds, gcs, gcTime, seconds, load, events, stolen, started);
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

    private static Measured measure(List<Check> checks, int rounds, JvmEvents jvm) throws IOException {
        int n = checks.size();
        double[][] blocks = new double[n][rounds];
        long[][] single = new long[n][rounds * BLOCK];
        long[] bytes = new long[n];
        long[] overWithoutCollection = new long[n];
        long[] maxCpu = new long[n];
        long[] inside = new long[n];
        long[] outside = new long[n];
        long[] chargedOutside = new long[n];
        SlowCalls.Block[][] singleBlocks = new SlowCalls.Block[n][rounds];
        List<SlowCalls.Call> slow = new ArrayList<>();
        long[] starts = new long[BLOCK];
        long[] cpuTimes = new long[BLOCK];
        long[] before = new long[ThreadCounters.COUNTERS];
        long[] after = new long[ThreadCounters.COUNTERS];
        int cpus = (int) Environment.cores();
        long[] irqBefore = new long[cpus];
        long[] irqAfter = new long[cpus];
        long self = Thread.currentThread().getId();
        boolean countersRead = true;
        try (ThreadCounters counters = ThreadCounters.ofCurrentThread();
                CpuInterrupts irqs = CpuInterrupts.open(cpus)) {
            for (int r = 0; r < rounds; r++) {
                jvm.anchor();
                for (int k = 0; k < n; k++) {
                    int i = (k + r) % n; // who goes first rotates
                    LongSupplier call = checks.get(i).call();
                    long allocated = THREADS.getThreadAllocatedBytes(self);
                    blocks[i][r] = block(call) / (double) BLOCK;
                    bytes[i] += THREADS.getThreadAllocatedBytes(self) - allocated;
                    long collections = gcCount();
                    long began = System.nanoTime();
                    boolean read = counters.read(before);
                    boolean irqRead = irqs.read(irqBefore);
                    singles(call, single[i], r * BLOCK, starts, cpuTimes);
                    irqRead &= irqs.read(irqAfter);
                    read &= counters.read(after);
                    long wall = System.nanoTime() - began;
                    long interrupts = -1;
                    if (read && irqRead) {
                        int from = (int) before[ThreadCounters.CPU];
                        int to = (int) after[ThreadCounters.CPU];
                        interrupts = 0;
                        for (int c = 0; c < cpus; c++) {
                            interrupts += c == from || c == to ? irqAfter[c] - irqBefore[c] : 0;
                        }
                    }
                    long gcs = gcCount() - collections;
                    countersRead &= read;
                    singleBlocks[i][r] = read
                            ? new SlowCalls.Block(
                                    after[ThreadCounters.RUN_QUEUE] - before[ThreadCounters.RUN_QUEUE],
                                    after[ThreadCounters.ON_CPU] - before[ThreadCounters.ON_CPU],
                                    after[ThreadCounters.SLICES] - before[ThreadCounters.SLICES],
                                    after[ThreadCounters.FAULTS] - before[ThreadCounters.FAULTS],
                                    interrupts,
                                    gcs,
                                    wall)
                            : new SlowCalls.Block(-1, -1, -1, -1, -1, gcs, wall);
                    for (int j = 0; j < BLOCK; j++) {
                        long t = single[i][r * BLOCK + j];
                        long cpu = cpuTimes[j];
                        maxCpu[i] = Math.max(maxCpu[i], cpu);
                        if (t <= SlowCalls.KEPT_OVER && cpu < SlowCalls.KEPT_OVER) {
                            inside[i] += t;
                            outside[i] += Math.max(0, cpu - t);
                        } else if (t <= SlowCalls.KEPT_OVER) {
                            chargedOutside[i]++;
                        }
                        if (t > SlowCalls.KEPT_OVER) {
                            slow.add(new SlowCalls.Call(i, r, starts[j], t, cpuTimes[j]));
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
                    new SlowCalls.Cpu(maxCpu[i], inside[i], outside[i], chargedOutside[i])));
        }
        return new Measured(rows, slow, singleBlocks, countersRead);
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
            JvmEvents.Recorded events,
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
        long ended = started + (long) (seconds * 1e9);
        JvmEvents.Recorded during = new JvmEvents.Recorded(
                events.recording(),
                events.pauses().stream().filter(p -> p.overlaps(started, ended)).toList(),
                events.deopts().stream()
                        .filter(d -> d.at() >= started && d.at() <= ended)
                        .toList());
        SlowCallsReport slow = new SlowCallsReport(
                rows.stream().map(Row::label).toList(),
                (long) rounds * BLOCK,
                m.slow(),
                m.blocks(),
                rows.stream().map(Row::cpu).toArray(SlowCalls.Cpu[]::new),
                m.countersRead(),
                during,
                started);
        md.append(slow.causes());
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
        md.append(slow.list());
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
