package dev.tollgate.experiments.race;

import dev.tollgate.experiments.common.Charts;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;

/** race.csv (every trial), race.md (min / median / max per row) and race.png. */
final class RaceReport {

    /** The article's naive figures, where it gave one for a comparable row. */
    private static final Map<String, String> ARTICLE = Map.of(
            "poolx1", "100 (correct)",
            "1connx2", "200 in all 10 trials",
            "4jvm-1connx8", "never emptied (≈1000)");

    private RaceReport() {}

    static void write(Path out, Map<String, String> env, int trials, List<RaceResult> results) throws IOException {
        StringBuilder csv = new StringBuilder("check,config,variant,in_flight_per_process,processes,trial,admitted\n");
        for (RaceResult r : results) {
            Config c = r.config();
            csv.append(String.join(
                            ",",
                            r.impl().id,
                            c.id(),
                            c.variant().id,
                            Integer.toString(c.inFlight()),
                            Integer.toString(c.processes()),
                            Integer.toString(r.trial()),
                            Integer.toString(r.admitted())))
                    .append('\n');
        }
        Files.writeString(out.resolve("race.csv"), csv);
        Files.writeString(out.resolve("race.md"), markdown(env, trials, results));
        Charts.png(chart(trials, results), out.resolve("race.png"));
    }

    private static String markdown(Map<String, String> env, int trials, List<RaceResult> results) {
        StringBuilder md = new StringBuilder("# Race: admitted checks on a bucket of ")
                .append(RaceExperiment.CAPACITY)
                .append(" tokens\n\n")
                .append("Capacity ")
                .append(RaceExperiment.CAPACITY)
                .append(", refill 0, ")
                .append(RaceExperiment.CHECKS)
                .append(" checks per trial, ")
                .append(trials)
                .append(" trials per row, interleaved. A correct limiter admits exactly ")
                .append(RaceExperiment.CAPACITY)
                .append(".\n\n")
                .append(
                        "| configuration | naive (HMGET, HSET) min / median / max | Tollgate script (EVALSHA) min / median / max | article, naive |\n")
                .append("|---|---|---|---|\n");
        for (Config c : RaceExperiment.CONFIGS) {
            md.append("| ")
                    .append(c.label())
                    .append(" (`")
                    .append(c.id())
                    .append("`) | ")
                    .append(summary(admitted(results, c, Impl.NAIVE)))
                    .append(" | ")
                    .append(summary(admitted(results, c, Impl.LUA)))
                    .append(" | ")
                    .append(ARTICLE.getOrDefault(c.id(), ""))
                    .append(" |\n");
        }
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        return md.toString();
    }

    static List<Integer> admitted(List<RaceResult> results, Config c, Impl impl) {
        List<Integer> v = new ArrayList<>();
        for (RaceResult r : results) {
            if (r.config().equals(c) && r.impl() == impl) {
                v.add(r.admitted());
            }
        }
        return v;
    }

    private static String summary(List<Integer> v) {
        return String.format("%.0f / %s / %.0f", Stats.min(v), fmt(Stats.median(v)), Stats.max(v));
    }

    private static String fmt(double d) {
        return d == Math.rint(d) ? Long.toString((long) d) : String.format("%.1f", d);
    }

    private static CategoryChart chart(int trials, List<RaceResult> results) {
        CategoryChart chart = new CategoryChartBuilder()
                .width(1100)
                .height(560)
                .title("Admitted of " + RaceExperiment.CHECKS + " checks, capacity " + RaceExperiment.CAPACITY
                        + " (median of " + trials + " trials; min and max in race.md)")
                .xAxisTitle(
                        "in flight per JVM: on one connection (1 conn) or on pooled connections, one thread each (pool)")
                .yAxisTitle("admitted")
                .build();
        Charts.style(chart.getStyler());
        chart.getStyler().setXAxisLabelRotation(0);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisMax((double) RaceExperiment.CHECKS);
        chart.getStyler().setLabelsVisible(true);
        chart.getStyler().setLabelsPosition(1.0);
        chart.getStyler().setLabelsFontColorAutomaticEnabled(false);
        chart.getStyler().setLabelsFontColor(java.awt.Color.BLACK);
        chart.getStyler().setDecimalPattern("#");
        List<String> x = new ArrayList<>();
        RaceExperiment.CONFIGS.forEach(c -> x.add(c.chartLabel()));
        series(chart, "naive (HMGET, HSET)", x, results, Impl.NAIVE).setFillColor(Charts.NAIVE);
        series(chart, "Tollgate script (EVALSHA)", x, results, Impl.LUA).setFillColor(Charts.TOLLGATE);
        return chart;
    }

    private static CategorySeries series(
            CategoryChart chart, String name, List<String> x, List<RaceResult> results, Impl impl) {
        List<Double> median = new ArrayList<>();
        for (Config c : RaceExperiment.CONFIGS) {
            List<Integer> v = admitted(results, c, impl);
            median.add(Stats.median(v));
        }
        return chart.addSeries(name, x, median);
    }
}
