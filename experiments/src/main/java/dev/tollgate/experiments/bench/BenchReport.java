package dev.tollgate.experiments.bench;

import dev.tollgate.experiments.common.Charts;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Stats;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/** bench.csv (every fork), bench.md (the tables) and two charts. */
final class BenchReport {

    static final Map<String, String> NAMES = Map.of(
            "ping", "PING (floor)",
            "evalsha", "raw EVALSHA token-bucket.lua",
            "tollgate", "store: RedisRateLimitStore.tryConsume",
            "guarded", "**guarded: Tollgate.check (guard + MP FT)**",
            "bucket4j", "Bucket4j 8.17.0 Jedis (CAS)",
            "naive", "naive HMGET + HSET",
            "evalshaHot", "raw EVALSHA, one hot key",
            "guardedHot", "guarded check, one hot key",
            "bucket4jHot", "Bucket4j, one hot key");

    private BenchReport() {}

    static void write(Path out, Map<String, String> env, List<BenchResult> results, List<CommandCount.Row> counts)
            throws IOException {
        StringBuilder csv =
                new StringBuilder("benchmark,mode,threads,round,score,score_error,unit,p50_us,p90_us,p99_us\n");
        for (BenchResult r : results) {
            csv.append(String.format(
                    "%s,%s,%d,%d,%.3f,%.3f,%s,%.3f,%.3f,%.3f%n",
                    r.spec().method(),
                    r.spec().latency() ? "latency" : "throughput",
                    r.spec().threads(),
                    r.round(),
                    r.score(),
                    r.error(),
                    r.unit(),
                    r.p50(),
                    r.p90(),
                    r.p99()));
        }
        Files.writeString(out.resolve("bench.csv"), csv);
        writeCommands(out, counts);
        Files.writeString(out.resolve("bench.md"), markdown(env, results, counts));
        charts(out, results, env.getOrDefault("placement", ""));
    }

    /** bench-commands.csv: round trips and commands per check. */
    static void writeCommands(Path out, List<CommandCount.Row> counts) throws IOException {
        StringBuilder cc =
                new StringBuilder("check,keys,threads,checks,round_trips_per_check,commands_per_check,per_command\n");
        for (CommandCount.Row c : counts) {
            cc.append(String.format(
                    "%s,%s,%d,%d,%.3f,%.3f,\"%s\"%n",
                    c.check(), c.keys(), c.threads(), c.checks(), c.roundTrips(), c.commands(), c.perCommand()));
        }
        Files.writeString(out.resolve("bench-commands.csv"), cc);
    }

    /** bench-interleaved.csv and bench-interleaved.md: the checks timed call by call, in turn, in one JVM. */
    static void writeInterleaved(Path out, Map<String, String> env, List<Interleaved.Row> rows, int calls)
            throws IOException {
        StringBuilder csv = new StringBuilder("check,p50_us,p90_us,p99_us\n");
        rows.forEach(r -> csv.append(String.format("%s,%.3f,%.3f,%.3f%n", r.check(), r.p50(), r.p90(), r.p99())));
        Files.writeString(out.resolve("bench-interleaved.csv"), csv);
        Interleaved.Row evalsha = rows.stream()
                .filter(r -> r.check().equals("evalsha"))
                .findFirst()
                .orElseThrow();
        StringBuilder md = new StringBuilder("# The checks interleaved call by call\n\n")
                .append(String.format(
                        "%,d calls of each, one thread, in turn (the order rotates every round) in one JVM on ", calls))
                .append(
                        "one client, after a fifth as many to warm up: load from elsewhere falls on every check alike. ")
                .append("The goal: guarded p50 ≤ 1.10× and p99 ≤ 1.3× the raw EVALSHA.\n\n")
                .append("| check | p50 µs | p90 µs | p99 µs | p50 × EVALSHA | p99 × EVALSHA |\n")
                .append("|---|---|---|---|---|---|\n");
        for (Interleaved.Row r : rows) {
            md.append(String.format(
                    "| %s | %.1f | %.1f | %.1f | %.2f | %.2f |%n",
                    NAMES.get(r.check()), r.p50(), r.p90(), r.p99(), r.p50() / evalsha.p50(), r.p99() / evalsha.p99()));
        }
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        Files.writeString(out.resolve("bench-interleaved.md"), md);
    }

    static void charts(Path out, List<BenchResult> results, String placement) throws IOException {
        String where = placementLabel(placement);
        Charts.png(latencyChart(results, where), out.resolve("bench-latency.png"));
        Charts.png(throughputChart(results, where), out.resolve("bench-throughput.png"));
    }

    /** Redraws the charts of a finished run from its bench.csv and the placement line of its bench.md. */
    static void replot(Path out) throws IOException {
        List<BenchResult> results = new ArrayList<>();
        List<String> lines = Files.readAllLines(out.resolve("bench.csv"));
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            Spec spec = new Spec(f[0], f[1].equals("latency"), Integer.parseInt(f[2]));
            results.add(new BenchResult(
                    spec,
                    Integer.parseInt(f[3]),
                    Double.parseDouble(f[4]),
                    Double.parseDouble(f[5]),
                    f[6],
                    Double.parseDouble(f[7]),
                    Double.parseDouble(f[8]),
                    Double.parseDouble(f[9])));
        }
        String placement = Files.readAllLines(out.resolve("bench.md")).stream()
                .filter(l -> l.startsWith("- placement: "))
                .map(l -> l.substring("- placement: ".length()))
                .findFirst()
                .orElse("");
        charts(out, results, placement);
    }

    static String placementLabel(String placement) {
        if (placement.endsWith("CPUs 0, redis-server on CPUs 0")) {
            return "client and Redis pinned to the same vCPU";
        }
        if (placement.endsWith("CPUs 1, redis-server on CPUs 0")) {
            return "client and Redis pinned to different vCPUs";
        }
        return "client and Redis placed by the scheduler on 2 vCPUs";
    }

    static List<BenchResult> of(List<BenchResult> results, String method, boolean latency, int threads) {
        List<BenchResult> v = new ArrayList<>();
        for (BenchResult r : results) {
            if (r.spec().method().equals(method)
                    && r.spec().latency() == latency
                    && r.spec().threads() == threads) {
                v.add(r);
            }
        }
        return v;
    }

    /** The median of the forks' p50s (the mean of two forks). */
    static double p50(List<BenchResult> results, String method) {
        return Stats.median(
                of(results, method, true, 1).stream().map(BenchResult::p50).toList());
    }

    /** The median of the forks' p99s. */
    static double p99(List<BenchResult> results, String method) {
        return Stats.median(
                of(results, method, true, 1).stream().map(BenchResult::p99).toList());
    }

    static double throughput(List<BenchResult> results, String method, int threads) {
        return Stats.median(of(results, method, false, threads).stream()
                .map(BenchResult::score)
                .toList());
    }

    private static String range(List<Double> v, String fmt) {
        return v.size() < 2
                ? ""
                : " (" + String.format(fmt, Stats.min(v)) + "–" + String.format(fmt, Stats.max(v)) + ")";
    }

    private static String markdown(Map<String, String> env, List<BenchResult> results, List<CommandCount.Row> counts) {
        double ping = p50(results, "ping");
        double evalsha = p50(results, "evalsha");
        double evalsha99 = p99(results, "evalsha");
        StringBuilder md = new StringBuilder("# Benchmark: the cost of one check\n\n")
                .append(
                        "One private Redis over loopback; every check on the pooled Jedis 8.0.2 client of one Tollgate ")
                .append("built by `engine.Tollgate` with MicroProfile Fault Tolerance (SmallRye, Weld SE). ")
                .append("Buckets of 10^9 tokens refilled at 10^9/s: every check is admitted and writes.\n\n")
                .append("## Latency, one thread (JMH SampleTime)\n\n")
                .append("Median of the forks' p50 and p99 (range of the p50 across forks in brackets). ")
                .append("The goal: guarded p50 ≤ 1.10× and p99 ≤ 1.3× the raw EVALSHA.\n\n")
                .append("| check | p50 µs | p99 µs | p50 × EVALSHA | p99 × EVALSHA | p50 × PING |\n")
                .append("|---|---|---|---|---|---|\n");
        for (String m : BenchExperiment.LATENCY) {
            List<BenchResult> rs = of(results, m, true, 1);
            List<Double> p50s = rs.stream().map(BenchResult::p50).toList();
            double p = Stats.median(p50s);
            double p99 = p99(results, m);
            md.append(String.format(
                    "| %s | %.1f%s | %.1f | %.2f | %.2f | %.2f |%n",
                    NAMES.get(m), p, range(p50s, "%.1f"), p99, p / evalsha, p99 / evalsha99, p / ping));
        }
        md.append("\n## Throughput (JMH Throughput, ops/s, all threads together)\n\n")
                .append("The goal: guarded ≥ 1.0× the raw EVALSHA at 8 and 32 threads; guarded on one hot key ")
                .append("≥ 4× Bucket4j on one hot key.\n\n")
                .append("| check | 1 thread | 8 threads | 32 threads |\n|---|---|---|---|\n");
        for (String m : BenchExperiment.THROUGHPUT) {
            md.append("| ").append(NAMES.get(m));
            for (int t : List.of(1, 8, 32)) {
                List<Double> v = of(results, m, false, t).stream()
                        .map(BenchResult::score)
                        .toList();
                md.append(" | ")
                        .append(v.isEmpty() ? "–" : String.format("%,.0f", Stats.median(v)) + range(v, "%,.0f"));
            }
            md.append(" |\n");
        }
        md.append("| guarded ÷ raw EVALSHA");
        for (int t : List.of(1, 8, 32)) {
            md.append(String.format(" | %.2f", throughput(results, "guarded", t) / throughput(results, "evalsha", t)));
        }
        md.append(" |\n\n| 8 threads, one hot key | ops/s |\n|---|---|\n");
        for (String m : BenchExperiment.HOT) {
            List<Double> v =
                    of(results, m, false, 8).stream().map(BenchResult::score).toList();
            md.append(String.format("| %s | %,.0f%s |%n", NAMES.get(m), Stats.median(v), range(v, "%,.0f")));
        }
        md.append(String.format(
                "| guarded ÷ Bucket4j, one hot key | %.2f |%n",
                throughput(results, "guardedHot", 8) / throughput(results, "bucket4jHot", 8)));
        md.append("\n## Redis commands per check\n\n")
                .append("Round trips: commands a client sent, counted with MONITOR. All commands: `INFO commandstats` ")
                .append("deltas, which also count the commands a script runs inside Redis.\n\n")
                .append(
                        "| check | keys | threads | round trips / check | all commands / check | per command / check |\n")
                .append("|---|---|---|---|---|---|\n");
        for (CommandCount.Row c : counts) {
            md.append(String.format(
                    "| %s | %s | %d | %.2f | %.2f | %s |%n",
                    c.check(), c.keys(), c.threads(), c.roundTrips(), c.commands(), c.perCommand()));
        }
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        return md.toString();
    }

    private static CategoryChart latencyChart(List<BenchResult> results, String where) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(500)
                .title("One check over loopback, one thread, p50 (" + where + ")")
                .xAxisTitle("check")
                .yAxisTitle("µs (p50)")
                .build();
        Charts.style(chart.getStyler());
        chart.getStyler().setLegendVisible(false);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
        chart.getStyler().setLabelsFontColor(Color.BLACK);
        chart.getStyler().setLabelsPosition(1.0);
        chart.getStyler().setDecimalPattern("#0.0");
        chart.getStyler().setYAxisMin(0.0);
        List<String> x = List.of("PING", "raw EVALSHA", "store", "guarded check", "Bucket4j CAS", "naive HMGET+HSET");
        List<Double> y = List.of(
                p50(results, "ping"),
                p50(results, "evalsha"),
                p50(results, "tollgate"),
                p50(results, "guarded"),
                p50(results, "bucket4j"),
                p50(results, "naive"));
        chart.addSeries("p50", x, y).setFillColor(Charts.TOLLGATE);
        return chart;
    }

    private static CategoryChart throughputChart(List<BenchResult> results, String where) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(900)
                .height(500)
                .title("Checks per second over loopback (" + where + ")")
                .xAxisTitle("client threads")
                .yAxisTitle("ops/s")
                .build();
        Charts.style(chart.getStyler());
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,###");
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(org.knowm.xchart.style.Styler.LegendLayout.Horizontal);
        List<String> x = List.of("1", "8", "32", "8, one hot key");
        chart.addSeries(
                        "PING",
                        x,
                        List.of(
                                throughput(results, "ping", 1),
                                throughput(results, "ping", 8),
                                throughput(results, "ping", 32),
                                0.0))
                .setFillColor(Charts.BASELINE);
        chart.addSeries(
                        "raw EVALSHA",
                        x,
                        List.of(
                                throughput(results, "evalsha", 1),
                                throughput(results, "evalsha", 8),
                                throughput(results, "evalsha", 32),
                                throughput(results, "evalshaHot", 8)))
                .setFillColor(Charts.BASELINE.darker());
        chart.addSeries(
                        "guarded check",
                        x,
                        List.of(
                                throughput(results, "guarded", 1),
                                throughput(results, "guarded", 8),
                                throughput(results, "guarded", 32),
                                throughput(results, "guardedHot", 8)))
                .setFillColor(Charts.TOLLGATE);
        chart.addSeries(
                        "Bucket4j",
                        x,
                        List.of(
                                throughput(results, "bucket4j", 1),
                                throughput(results, "bucket4j", 8),
                                throughput(results, "bucket4j", 32),
                                throughput(results, "bucket4jHot", 8)))
                .setFillColor(Charts.PEER);
        return chart;
    }
}
