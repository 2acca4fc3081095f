package dev.tollgate.experiments.http;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.http.HttpOverhead.Run;
import dev.tollgate.experiments.http.HttpOverhead.Series;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** raw/http.csv (every round of every run) and http.md. */
final class HttpReport {

    private HttpReport() {}

    static void write(Path out, Map<String, String> env, int firstWarmup, int warmup, List<Run> runs)
            throws IOException {
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder("run,round");
        for (Series s : Series.values()) {
            csv.append(',').append(s.column).append("_us");
        }
        csv.append('\n');
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            for (int i = 0; i < run.of(Series.LIMITED).length; i++) {
                csv.append(r + 1).append(',').append(i);
                for (Series s : Series.values()) {
                    long[] column = run.of(s);
                    csv.append(',').append(column.length == 0 ? "" : String.format("%.1f", column[i] / 1e3));
                }
                csv.append('\n');
            }
        }
        Files.writeString(Options.raw(out).resolve("http.csv"), csv);
        Run first = runs.get(0);
        int rounds = first.of(Series.LIMITED).length;
        StringBuilder md = new StringBuilder("# HTTP: latency the filter adds\n\n")
                .append(runs.size())
                .append(" runs; each ")
                .append(warmup)
                .append(" warm-up rounds (the first ")
                .append(firstWarmup)
                .append("), then ")
                .append(rounds)
                .append(
                        " sequential rounds over kept-alive HTTP/1.1 (a connection per server), one request of each in turn"
                                + " (the first of a round rotates): `")
                .append(HttpOverhead.LIMITED)
                .append("` (limited by the JAX-RS filter), `")
                .append(HttpOverhead.UNLIMITED)
                .append("` (same resource, no limit)")
                .append(
                        first.of(Series.BY_HAND).length == 0
                                ? ""
                                : ", `" + HttpOverhead.BY_HAND
                                        + "` (same resource, limited by hand: one Jedis `EVALSHA`"
                                        + " of Tollgate's `token-bucket.lua` in the method)")
                .append(", `")
                .append(HttpOverhead.LEASED)
                .append("` (a leased limit)")
                .append(
                        first.of(Series.IN_LIMITED).length == 0
                                ? ""
                                : ", and `/demo/hello` and `/demo/unlimited` on a second server of the WAR without Redis"
                                        + " (in process)")
                .append(
                        first.of(Series.RAW).length == 0
                                ? ""
                                : "; and a raw `EVALSHA` of `token-bucket.lua` from the driver on its own connection"
                                        + " to the same Redis")
                .append(". Added = the endpoint's p50 − `/demo/unlimited`'s p50 on the same server, ms; in process"
                        + " in µs, the unit of its goal (≤ 10 µs).\n\n")
                .append(
                        "| run | limited p50 | unlimited p50 | **added by Tollgate** | by hand: added | **Tollgate ÷ by hand**"
                                + " | leased: added | **leased ÷ by hand** | **in process: added, µs** | limited p99 | unlimited p99"
                                + " | raw EVALSHA p50 | (added − in process) ÷ raw | statuses |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int r = 0; r < runs.size(); r++) {
            Run run = runs.get(r);
            md.append(String.format(
                    "| %d | %.3f | %.3f | **%.3f** | %.3f | **%.2f×** | %.3f | **%.2f×** | **%.1f** | %.3f | %.3f | %.3f | %.2f× | %s |%n",
                    r + 1,
                    run.p50(Series.LIMITED),
                    run.p50(Series.UNLIMITED),
                    run.added(),
                    run.addedByHand(),
                    run.ratioToByHand(),
                    run.addedLeased(),
                    run.leasedToByHand(),
                    run.addedInProcessMicros(),
                    run.p99(Series.LIMITED),
                    run.p99(Series.UNLIMITED),
                    run.p50(Series.RAW),
                    run.ratioToRaw(),
                    run.statuses()));
        }
        md.append(String.format(
                "%nAcross %d runs: added by Tollgate %s ms; by hand %s ms; Tollgate ÷ by hand %s; leased %s ms,"
                        + " leased ÷ by hand %s; in process %s µs (the article reports 0.16–0.18 ms added).%n",
                runs.size(),
                range(runs, Run::added, "%.3f"),
                range(runs, Run::addedByHand, "%.3f"),
                range(runs, Run::ratioToByHand, "%.2f×"),
                range(runs, Run::addedLeased, "%.3f"),
                range(runs, Run::leasedToByHand, "%.2f×"),
                range(runs, Run::addedInProcessMicros, "%.1f")));
        if (!runs.stream().allMatch(Run::allOk)) {
            md.append("\n**Warning: not every answer was 200: raise the limits so no endpoint ever rejects.**\n");
        }
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        Files.writeString(out.resolve("http.md"), md);
    }

    private static String range(List<Run> runs, ToDoubleFunction<Run> f, String format) {
        double min = runs.stream().mapToDouble(f).min().orElse(Double.NaN);
        double max = runs.stream().mapToDouble(f).max().orElse(Double.NaN);
        return String.format(format, min) + "–" + String.format(format, max);
    }
}
