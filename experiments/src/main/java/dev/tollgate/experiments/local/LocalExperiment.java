package dev.tollgate.experiments.local;

import dev.tollgate.Decision;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
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
 * counted; a call over a millisecond is told apart by whether a collection happened during its block of
 * single calls (the collection count read before and after each block): one in a block without a
 * collection was the machine's (a descheduled thread), or the check's own.
 */
public final class LocalExperiment {

    private static final long CAPACITY = 1_000_000_000L;
    private static final int BLOCK = 1_000;

    /** Keeps every answer alive, so the JIT removes no call. */
    private static long sink;

    private LocalExperiment() {}

    /** One check, its answer folded into a number. */
    private record Check(String name, LongSupplier call) {}

    /** What a run measured of one check. */
    private record Row(
            String name, double p50, double p99Block, long[] single, double bytesPerCall, long overWithoutCollection) {
        double single(double p) {
            return Stats.percentile(single, p);
        }

        long over(long nanos) {
            return Arrays.stream(single).filter(t -> t > nanos).count();
        }
    }

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, Path.of("experiments/results/issue-24"));
        int rounds = o.quick() ? 50 : 1_000;
        int warmup = o.quick() ? 200_000 : 3_000_000;
        String load = Environment.loadAverage();
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
                            () -> bucket.tryConsume(1) ? 1 : 0),
                    new Check(
                            "Tollgate.check (in process, from settings)",
                            () -> answer(tollgate.check("hot", "client"))),
                    new Check("timing around nothing (the clock's floor)", () -> 1));
            for (int i = 0; i < warmup; i++) {
                for (Check c : checks) {
                    sink += c.call().getAsLong();
                }
            }
            long gcCount = gcCount();
            long gcMillis = gcMillis();
            long started = System.nanoTime();
            List<Row> rows = measure(checks, rounds);
            double seconds = (System.nanoTime() - started) / 1e9;
            String md = report(o, rows, rounds, gcCount() - gcCount, gcMillis() - gcMillis, seconds, load);
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

    private static List<Row> measure(List<Check> checks, int rounds) {
        int n = checks.size();
        double[][] blocks = new double[n][rounds];
        long[][] single = new long[n][rounds * BLOCK];
        long[] bytes = new long[n];
        long[] overWithoutCollection = new long[n];
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long self = Thread.currentThread().getId();
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < n; k++) {
                int i = (k + r) % n; // who goes first rotates
                LongSupplier call = checks.get(i).call();
                long allocated = threads.getThreadAllocatedBytes(self);
                blocks[i][r] = block(call) / (double) BLOCK;
                bytes[i] += threads.getThreadAllocatedBytes(self) - allocated;
                long collections = gcCount();
                singles(call, single[i], r * BLOCK);
                if (gcCount() == collections) {
                    for (int j = r * BLOCK; j < (r + 1) * BLOCK; j++) {
                        overWithoutCollection[i] += single[i][j] > 1_000_000 ? 1 : 0;
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
                    b[b.length / 2],
                    b[(int) Math.ceil(0.99 * b.length) - 1],
                    single[i],
                    bytes[i] / (double) ((long) rounds * BLOCK),
                    overWithoutCollection[i]));
        }
        return rows;
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

    /** {@link #BLOCK} calls each timed alone, into {@code out} from {@code at}. */
    private static void singles(LongSupplier call, long[] out, int at) {
        long s = 0;
        for (int j = 0; j < BLOCK; j++) {
            long start = System.nanoTime();
            s += call.getAsLong();
            out[at + j] = System.nanoTime() - start;
        }
        sink += s;
    }

    private static String report(
            Options o, List<Row> rows, int rounds, long gcs, long gcMillis, double seconds, String load) {
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
        md.append("Command: `experiments/run local")
                .append(o.quick() ? " --quick" : "")
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
        return md.toString();
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
