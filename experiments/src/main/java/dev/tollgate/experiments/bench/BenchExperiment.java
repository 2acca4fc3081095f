package dev.tollgate.experiments.bench;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Options;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The cost of a check: JMH over loopback against one private Redis, every benchmark in one run. Forks
 * are run round-robin (round 1 runs each benchmark once, round 2 again in reverse order, and so on), because client
 * and Redis share two cores and the CPU placement of a fork moves its numbers more than anything
 * compared here.
 */
public final class BenchExperiment {

    /** One thread, p50 and p99: the floor, the raw script, the store, the guarded check, the peers. */
    static final List<String> LATENCY = List.of("ping", "evalsha", "tollgate", "guarded", "bucket4j", "naive");

    /** At 1, 8 and 32 threads. */
    static final List<String> THROUGHPUT = List.of("ping", "evalsha", "guarded", "bucket4j");

    /** 8 threads on one key. */
    static final List<String> HOT = List.of("evalshaHot", "guardedHot", "bucket4jHot");

    static final List<Spec> SPECS = specs();

    private BenchExperiment() {}

    private static List<Spec> specs() {
        List<Spec> s = new ArrayList<>();
        for (String m : LATENCY) {
            s.add(new Spec(m, true, 1));
        }
        for (int threads : List.of(1, 8, 32)) {
            for (String m : THROUGHPUT) {
                s.add(new Spec(m, false, threads));
            }
        }
        for (String m : HOT) {
            s.add(new Spec(m, false, 8));
        }
        return List.copyOf(s);
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, Path.of("results"));
        if (options.rest().contains("--replot")) {
            BenchReport.replot(options.out());
            System.out.println("bench: redrew the charts in " + options.out() + " from its bench.csv");
            return;
        }
        boolean quick = options.quick();
        int rounds = quick ? 1 : 3;
        Files.createDirectories(options.out());
        // experiments/run pins this JVM (and so JMH's forks) with taskset and names Redis's CPUs here.
        int at = options.rest().indexOf("--redis-cpus");
        String redisCpus = at >= 0 ? options.rest().get(at + 1) : null;
        int b = options.rest().indexOf("--budget");
        String budget = b >= 0 ? options.rest().get(b + 1) : null;
        if (budget != null) {
            System.setProperty(Guarded.BUDGET_PROPERTY, budget); // this JVM (interleaved); the forks below
        }
        try (LocalRedis redis = LocalRedis.start(redisCpus)) {
            Map<String, String> env = Environment.describe(redis);
            env.put(
                    "placement",
                    "client JVMs (runner and JMH forks) on CPUs " + Environment.allowedCpus()
                            + ", redis-server on CPUs " + (redisCpus == null ? "chosen by the scheduler" : redisCpus));
            env.put(
                    "guarded check's budget (tollgate.redis.timeout)",
                    budget == null ? "250 ms, the default users run" : budget + " (--budget: not the default)");
            System.setProperty(RedisBench.PORT_PROPERTY, Integer.toString(redis.port()));
            System.out.printf(
                    "bench: %d benchmarks x %d rounds (%s); Redis %s on port %d; load %s%n",
                    SPECS.size(),
                    rounds,
                    quick ? "quick: in-process, 1x0.2s warm-up, 2x0.2s" : "1 fork each, 8x1s warm-up, 4x1s",
                    redis.version(),
                    redis.port(),
                    env.get("load average at start"));
            if (options.rest().contains("--no-jmh")) {
                // What the bench asserts without timing anything (CI's ExperimentsQuickIT): every
                // benchmark's method answers, outside JMH, and each check's round trips and commands.
                BenchSmoke.write(options.out(), BenchSmoke.run(SPECS));
                System.out.println("bench: every benchmark method answered once (bench-smoke.csv)");
                List<CommandCount.Row> counts = counts(redis, quick);
                BenchReport.writeCommands(options.out(), counts);
                System.out.println("bench: wrote bench-smoke.csv, bench-commands.csv to " + options.out());
                return;
            }
            int calls = quick ? 2000 : 30000;
            if (options.rest().contains("--interleaved")) {
                List<Interleaved.Row> rows = interleaved(redis, calls);
                env.put("load average at end", Environment.loadAverage());
                BenchReport.writeInterleaved(options.out(), env, rows, calls);
                System.out.println("bench: wrote bench-interleaved.csv, bench-interleaved.md to " + options.out());
                return;
            }
            List<BenchResult> results = new ArrayList<>();
            int n = 0;
            for (int round = 1; round <= rounds; round++) {
                List<Spec> order = new ArrayList<>(SPECS);
                if (round % 2 == 0) {
                    Collections.reverse(order);
                }
                for (Spec spec : order) {
                    n++;
                    try (var admin = redis.admin()) {
                        admin.flushAll();
                    }
                    BenchResult r = run(spec, round, quick, redis.port());
                    results.add(r);
                    System.out.printf(
                            "[%d/%d] round %d %-12s %-10s threads=%-2d %s%n",
                            n,
                            rounds * SPECS.size(),
                            round,
                            spec.method(),
                            spec.latency() ? "latency" : "throughput",
                            spec.threads(),
                            describe(r));
                }
            }
            try (var admin = redis.admin()) {
                admin.flushAll();
            }
            List<Interleaved.Row> inter = interleaved(redis, calls);
            BenchReport.writeInterleaved(options.out(), env, inter, calls);
            List<CommandCount.Row> counts = counts(redis, quick);
            env.put("load average at end", Environment.loadAverage());
            env.put(
                    "JMH",
                    quick
                            ? "QUICK mode: forks 0, 1 x 200 ms warm-up, 2 x 200 ms measurement (not for quoting)"
                            : rounds
                                    + " forks per benchmark (round-robin), 8 x 1 s warm-up (one pinned vCPU: the JIT shares it for ~6 s), 4 x 1 s measurement");
            BenchReport.write(options.out(), env, results, counts);
            System.out.println(
                    "bench: wrote bench.csv, bench.md, bench-latency.png, bench-throughput.png to " + options.out());
        }
    }

    private static List<CommandCount.Row> counts(LocalRedis redis, boolean quick) throws Exception {
        System.out.println("bench: counting commands per check (MONITOR and INFO commandstats)");
        List<CommandCount.Row> counts = CommandCount.measure(redis, quick ? 400 : 4000);
        counts.forEach(c -> System.out.printf(
                "  %-20s %-12s threads=%d round trips/check %.2f, commands/check %.2f (%s)%n",
                c.check(), c.keys(), c.threads(), c.roundTrips(), c.commands(), c.perCommand()));
        return counts;
    }

    private static List<Interleaved.Row> interleaved(LocalRedis redis, int calls) throws Exception {
        System.out.printf("bench: %d calls of each check in turn, in this JVM (interleaved call by call)%n", calls);
        List<Interleaved.Row> rows = Interleaved.measure(redis, calls);
        rows.forEach(r -> System.out.printf(
                "  %-10s p50 %.1f us, p90 %.1f us, p99 %.1f us%n", r.check(), r.p50(), r.p90(), r.p99()));
        return rows;
    }

    private static BenchResult run(Spec spec, int round, boolean quick, int port) throws Exception {
        OptionsBuilder o = new OptionsBuilder();
        o.include(RedisBench.class.getName() + "\\." + spec.method() + "$")
                .mode(spec.mode())
                .timeUnit(spec.latency() ? TimeUnit.MICROSECONDS : TimeUnit.SECONDS)
                .threads(spec.threads())
                .forks(quick ? 0 : 1)
                .warmupIterations(quick ? 1 : 8)
                .warmupTime(quick ? TimeValue.milliseconds(200) : TimeValue.seconds(1))
                .measurementIterations(quick ? 2 : 4)
                .measurementTime(quick ? TimeValue.milliseconds(200) : TimeValue.seconds(1))
                .jvmArgsAppend(forkArgs(port))
                .shouldFailOnError(true)
                .verbosity(VerboseMode.SILENT);
        RunResult rr = new Runner(o.build()).runSingle();
        Result<?> primary = rr.getPrimaryResult();
        var stats = primary.getStatistics();
        double p50 = spec.latency() ? stats.getPercentile(50) : Double.NaN;
        double p90 = spec.latency() ? stats.getPercentile(90) : Double.NaN;
        double p99 = spec.latency() ? stats.getPercentile(99) : Double.NaN;
        return new BenchResult(
                spec, round, primary.getScore(), primary.getScoreError(), primary.getScoreUnit(), p50, p90, p99);
    }

    /** A fork's JVM options: Redis's port and, when one was named, the guarded check's budget. */
    private static String[] forkArgs(int port) {
        List<String> args = new ArrayList<>(List.of("-D" + RedisBench.PORT_PROPERTY + "=" + port, "-Xmx512m"));
        String budget = System.getProperty(Guarded.BUDGET_PROPERTY);
        if (budget != null) {
            args.add("-D" + Guarded.BUDGET_PROPERTY + "=" + budget);
        }
        return args.toArray(String[]::new);
    }

    private static String describe(BenchResult r) {
        return r.spec().latency()
                ? String.format("p50 %.1f us, mean %.1f us, p99 %.1f us", r.p50(), r.score(), r.p99())
                : String.format("%.0f ops/s", r.score());
    }
}
