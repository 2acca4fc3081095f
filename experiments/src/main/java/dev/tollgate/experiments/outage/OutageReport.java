package dev.tollgate.experiments.outage;

import dev.tollgate.experiments.common.Charts;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import dev.tollgate.experiments.outage.OutageExperiment.Check;
import dev.tollgate.experiments.outage.OutageExperiment.PhaseRun;
import java.awt.BasicStroke;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** outage.csv (every check), outage-phases.csv (one row per phase), outage.md and outage.png. */
final class OutageReport {

    /** A gap this large between wall-clock and monotonic time over a phase means the machine slept. */
    static final long SLEEP_GAP_NANOS = 1_000_000_000L;

    private OutageReport() {}

    static void write(Path out, Map<String, String> env, int checks, int warmup, List<PhaseRun> runs, long runGap)
            throws IOException {
        StringBuilder csv = new StringBuilder("phase,index,latency_us,outcome,degraded,breaker_open_after,cause\n");
        for (PhaseRun r : runs) {
            for (Check c : r.checks()) {
                csv.append(String.format(
                        Locale.ROOT,
                        "%s,%d,%.1f,%s,%b,%b,%s%n",
                        c.phase().id,
                        c.index(),
                        c.nanos() / 1e3,
                        c.outcome(),
                        c.degraded(),
                        c.guardOpenAfter(),
                        c.cause()));
            }
        }
        Files.writeString(Options.raw(out).resolve("outage.csv"), csv);

        StringBuilder phases = new StringBuilder("phase,checks,p50_us,p99_us,max_us,paid_timeout,redis_allowed,"
                + "redis_denied,degraded_allowed,degraded_denied,breaker_open_after_check,fault_ms,recovery_ms,"
                + "first_check_us,first_check_outcome,probes,monotonic_ms,wall_ms,clock_gap_ms,timeouts,overrun_ms,"
                + "max_within_budget_plus_10ms,paid_goal,paid_goal_met\n");
        for (PhaseRun r : runs) {
            Check first = r.checks().get(0);
            phases.append(String.format(
                    Locale.ROOT,
                    "%s,%d,%.1f,%.1f,%.1f,%d,%d,%d,%d,%d,%d,%.1f,%s,%.1f,%s,%d,%.1f,%.1f,%.1f,%d,%.1f,%b,%s,%b%n",
                    r.phase().id,
                    r.checks().size(),
                    pct(r, 50) / 1e3,
                    pct(r, 99) / 1e3,
                    pct(r, 100) / 1e3,
                    OutageGoals.overBudget(r),
                    count(r, "redis-allowed"),
                    count(r, "redis-denied"),
                    count(r, "degraded-allowed"),
                    count(r, "degraded-denied"),
                    r.openedAfter(),
                    r.faultNanos() / 1e6,
                    recoveryCsv(r),
                    first.nanos() / 1e3,
                    first.outcome(),
                    r.probes(),
                    r.monoNanos() / 1e6,
                    r.wallNanos() / 1e6,
                    r.clockGapNanos() / 1e6,
                    OutageGoals.timeouts(r),
                    OutageGoals.overrunNanos(r) / 1e6,
                    OutageGoals.withinBudget(r),
                    r.phase().role.paidGoal,
                    OutageGoals.paidGoalMet(r)));
        }
        Files.writeString(out.resolve("outage-phases.csv"), phases);
        Files.writeString(out.resolve("outage.md"), markdown(env, checks, warmup, runs, runGap));
        Charts.png(chart(checks, runs), out.resolve("outage.png"));
    }

    static String progressLine(PhaseRun r) {
        return String.format(
                Locale.ROOT,
                "%-17s p50 %9s  p99 %9s  max %9s  overrun %9s  waited %3d (goal %s)  redis-allowed %3d  degraded %3d"
                        + "  recovery %s%s",
                r.phase().id,
                ms(pct(r, 50)),
                ms(pct(r, 99)),
                ms(pct(r, 100)),
                ms(OutageGoals.overrunNanos(r)),
                OutageGoals.overBudget(r),
                r.phase().role.paidGoal,
                count(r, "redis-allowed"),
                count(r, "degraded-allowed") + count(r, "degraded-denied"),
                recoveryText(r),
                Math.abs(r.clockGapNanos()) > SLEEP_GAP_NANOS ? "  CLOCK GAP " + ms(r.clockGapNanos()) : "");
    }

    private static String markdown(Map<String, String> env, int checks, int warmup, List<PhaseRun> runs, long runGap) {
        StringBuilder md = new StringBuilder("# Outage: what a check costs while Redis is dead or hung\n\n");
        md.append(String.format(
                Locale.ROOT,
                "%d sequential checks per phase through `Tollgate.check` (built from settings with"
                        + " `Tollgate.build`; token bucket, 10⁹ tokens, fail-open), budget %d ms, one redis-server"
                        + " process killed and restarted on the same port, stopped and continued, paused for writes"
                        + " and unpaused; then the link phases, through a TCP proxy (NetCrusher) in front of the same"
                        + " redis-server, frozen and thawed, slowed to %d ms a reply and sped up. Every phase but one"
                        + " uses Tollgate's guard with its defaults (`ExecutorCaller`, `ConsecutiveFailuresBreaker`:"
                        + " 3 failures in a row open it for 500 ms, background probe every 100 ms);"
                        + " `hung-breaker-off` uses a second Tollgate whose breaker never opens (its settings'"
                        + " threshold `Integer.MAX_VALUE`), the article's situation; the `link-` phases a third,"
                        + " with the defaults, whose Redis URL is the proxy's. Every fault with the breaker on starts"
                        + " from a closed breaker after checks Redis answered. %d unrecorded warm-up checks first"
                        + " (and again for the third Tollgate). Latency: `System.nanoTime()` around"
                        + " `Tollgate.check`.%n%n",
                checks,
                OutageExperiment.BUDGET.toMillis(),
                OutageExperiment.SLOW_LINK.toMillis(),
                warmup));
        md.append("| phase | p50 | p99 | max | max − budget | checks that waited out the budget (≥ 80% of it)"
                        + " | goal | of which the guard's cause `timeout` | Redis-allowed | degraded-allowed"
                        + " | degraded-denied | breaker open after check # | recovery (no checks) | first check"
                        + " | article |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (PhaseRun r : runs) {
            Check first = r.checks().get(0);
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %s | %s | %s%s | %d of %d | %s%s | %d | %d | %d | %d | %s | %s | %s, %s | %s |%n",
                    r.phase().label,
                    ms(pct(r, 50)),
                    ms(pct(r, 99)),
                    ms(pct(r, 100)),
                    signedMs(OutageGoals.overrunNanos(r)),
                    OutageGoals.withinBudget(r) ? "" : " **over**",
                    OutageGoals.overBudget(r),
                    r.checks().size(),
                    r.phase().role.paidGoal,
                    OutageGoals.paidGoalMet(r) ? "" : " **missed**",
                    OutageGoals.timeouts(r),
                    count(r, "redis-allowed"),
                    count(r, "degraded-allowed"),
                    count(r, "degraded-denied"),
                    r.openedAfter() < 0 ? "–" : Integer.toString(r.openedAfter() + 1),
                    recoveryText(r),
                    ms(first.nanos()),
                    first.outcome(),
                    r.phase().article));
        }
        md.append("\n").append(OutageGoals.verdicts(runs));
        md.append("\nThe article's figures (node-redis, no breaker, 300 checks per phase): dead Redis faster than"
                + " healthy; hung Redis ~250 ms for every check, slowest 253 ms (under `caffeinate`; two earlier"
                + " runs had one check of 30 and 25 minutes, the laptop asleep); after SIGCONT and after a restart"
                + " the next check succeeded without help.\n\n");

        md.append("## Phases\n\n");
        for (PhaseRun r : runs) {
            md.append(String.format(
                    Locale.ROOT,
                    "- **%s**: %s. Causing the fault took %s; %d background probes sent during the phase;"
                            + " the phase took %.2f s.%n",
                    r.phase().label,
                    r.phase().what,
                    ms(r.faultNanos()),
                    r.probes(),
                    r.monoNanos() / 1e9));
        }
        md.append("\nRecovery is timed from the fault's end (the restarted redis-server answering PING, `kill"
                + " -CONT` or `CLIENT UNPAUSE` returning, the proxy unfrozen or sped up) until the guard's `isOpen()` turns false, polled every 0.1 ms without making"
                + " a check; the first check of the phase is made only after that. An open breaker refuses"
                + " even the probe for its 500 ms delay, so a fault shorter than that recovers when the delay"
                + " ends (plus up to one 100 ms probe interval), not when Redis is back.\n\n");

        md.append("## Did the machine sleep?\n\n");
        md.append("Wall-clock (`Instant`) against monotonic (`System.nanoTime`) time over each phase; a machine"
                + " that sleeps stops the monotonic clock and every timer with it, so the gap shows the sleep.\n\n"
                + "| phase | monotonic | wall clock | gap |\n|---|---|---|---|\n");
        boolean slept = false;
        for (PhaseRun r : runs) {
            boolean gap = Math.abs(r.clockGapNanos()) > SLEEP_GAP_NANOS;
            slept |= gap;
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | %.3f s | %.3f s | %s%s |%n",
                    r.phase().label,
                    r.monoNanos() / 1e9,
                    r.wallNanos() / 1e9,
                    ms(r.clockGapNanos()),
                    gap ? " **> 1 s: the machine slept or the wall clock was stepped**" : ""));
        }
        slept |= Math.abs(runGap) > SLEEP_GAP_NANOS;
        md.append(
                slept
                        ? "\n**A gap over 1 s: treat the affected phase's numbers as suspect.**\n"
                        : "\nNo gap over 1 s in any phase, nor over the whole run (" + ms(runGap) + "): the machine"
                                + " did not sleep.\n");
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        return md.toString();
    }

    private static XYChart chart(int checks, List<PhaseRun> runs) {
        XYChart chart = new XYChartBuilder()
                .width(1400)
                .height(620)
                .title("Latency of each check, " + checks + " sequential checks per phase (budget "
                        + OutageExperiment.BUDGET.toMillis() + " ms)")
                .xAxisTitle("check number over the whole run (phases in order)")
                .yAxisTitle("latency per check, ms (log scale)")
                .build();
        Charts.style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setMarkerSize(5);
        chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
        chart.getStyler().setPlotGridLinesColor(new java.awt.Color(0xE4, 0xE4, 0xE4));
        chart.getStyler().setXAxisDecimalPattern("#");
        int n = 0;
        double min = Double.MAX_VALUE;
        double max = 0;
        for (PhaseRun r : runs) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (Check c : r.checks()) {
                x.add((double) n++);
                double v = Math.max(c.nanos(), 1_000) / 1e6;
                y.add(v);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
            XYSeries s = chart.addSeries(
                    String.format(Locale.ROOT, "%s (p50 %s, max %s)", r.phase().label, ms(pct(r, 50)), ms(pct(r, 100))),
                    x,
                    y);
            s.setMarkerColor(r.phase().color);
            s.setMarker(SeriesMarkers.CIRCLE);
        }
        double budget = OutageExperiment.BUDGET.toMillis();
        XYSeries line = chart.addSeries(
                "budget " + (long) budget + " ms", new double[] {0, n - 1}, new double[] {budget, budget});
        line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        line.setMarker(SeriesMarkers.NONE);
        line.setLineColor(Charts.BASELINE);
        line.setLineStyle(
                new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
        chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(Math.max(max, budget * 2)))));
        return chart;
    }

    static double pct(PhaseRun r, double p) {
        long[] v = Stats.sorted(r.checks().stream().mapToLong(Check::nanos).toArray());
        return p >= 100 ? v[v.length - 1] : Stats.percentile(v, p);
    }

    static long count(PhaseRun r, String outcome) {
        return r.checks().stream().filter(c -> c.outcome().equals(outcome)).count();
    }

    private static String recoveryCsv(PhaseRun r) {
        if (!r.phase().recovers()) {
            return "";
        }
        return r.recoveryNanos() < 0 ? "none" : String.format(Locale.ROOT, "%.1f", r.recoveryNanos() / 1e6);
    }

    private static String recoveryText(PhaseRun r) {
        if (!r.phase().recovers()) {
            return "–";
        }
        if (r.recoveryNanos() < 0) {
            return "**none within " + OutageExperiment.RECOVERY_LIMIT.toSeconds() + " s**";
        }
        return r.recoveryNanos() == 0 ? "guard was not open" : ms(r.recoveryNanos());
    }

    /** Like {@link #ms} with a sign: {@code +3.1 ms}, {@code -24 ms}. */
    static String signedMs(double nanos) {
        return (nanos >= 0 ? "+" : "") + ms(nanos);
    }

    /** Nanoseconds as milliseconds with a precision that suits their size. */
    static String ms(double nanos) {
        double ms = nanos / 1e6;
        double a = Math.abs(ms);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f ms", ms);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.1f ms", ms);
        }
        return String.format(Locale.ROOT, "%.3f ms", ms);
    }
}
