package dev.tollgate.experiments.http;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** http.csv (every pair of every run) and http.md. */
final class HttpReport {

    private HttpReport() {}

    static void write(Path out, Map<String, String> env, int warmup, List<HttpOverhead.Run> runs) throws IOException {
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder(
                "run,round,limited_us,unlimited_us,in_process_limited_us,in_process_unlimited_us,raw_evalsha_us\n");
        for (int r = 0; r < runs.size(); r++) {
            HttpOverhead.Run run = runs.get(r);
            for (int i = 0; i < run.limited().length; i++) {
                csv.append(r + 1).append(',').append(i);
                for (long[] column :
                        List.of(run.limited(), run.unlimited(), run.inLimited(), run.inUnlimited(), run.raw())) {
                    csv.append(',').append(column.length == 0 ? "" : String.format("%.1f", column[i] / 1e3));
                }
                csv.append('\n');
            }
        }
        Files.writeString(Options.raw(out).resolve("http.csv"), csv);
        int pairs = runs.get(0).limited().length;
        StringBuilder md = new StringBuilder("# HTTP: latency the filter adds\n\n")
                .append(runs.size())
                .append(" runs; each ")
                .append(warmup)
                .append(" warm-up requests, then ")
                .append(pairs)
                .append(" sequential rounds over kept-alive HTTP/1.1 (a connection per server), alternating `")
                .append(HttpOverhead.LIMITED)
                .append("` (limited by the JAX-RS filter) and `")
                .append(HttpOverhead.UNLIMITED)
                .append("` (same resource, no limit)")
                .append(
                        runs.get(0).inLimited().length == 0
                                ? ""
                                : ", and the same two on a second server of the WAR without Redis (in process)")
                .append(
                        runs.get(0).raw().length == 0
                                ? ""
                                : ", and a raw `EVALSHA` of `token-bucket.lua` from the driver on its own connection"
                                        + " to the same Redis, each in turn (the first of a round rotates)")
                .append(".\n\n")
                .append(
                        "| run | limited p50 ms | unlimited p50 ms | added: difference of medians, ms | median of paired differences, ms | limited p99 ms | unlimited p99 ms | added in process, ms | raw EVALSHA p50 ms | (added − added in process) / raw | statuses |\n")
                .append("|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int r = 0; r < runs.size(); r++) {
            HttpOverhead.Run run = runs.get(r);
            md.append(String.format(
                    "| %d | %.3f | %.3f | **%.3f** | %.3f | %.3f | %.3f | %.3f | %.3f | **%.2f×** | %s |%n",
                    r + 1,
                    run.p50(true),
                    run.p50(false),
                    run.added(),
                    run.medianPairedDifference(),
                    Stats.percentile(Stats.sorted(run.limited()), 99) / 1e6,
                    Stats.percentile(Stats.sorted(run.unlimited()), 99) / 1e6,
                    run.addedInProcess(),
                    HttpOverhead.Run.p50(run.raw()),
                    run.ratioToRaw(),
                    run.statuses()));
        }
        double min = runs.stream().mapToDouble(HttpOverhead.Run::added).min().orElse(Double.NaN);
        double max = runs.stream().mapToDouble(HttpOverhead.Run::added).max().orElse(Double.NaN);
        md.append(String.format(
                "%n**Added by the filter at the median: %.3f–%.3f ms across %d runs**; the article "
                        + "reports 0.16–0.18 ms across three runs.%n",
                min, max, runs.size()));
        boolean allOk =
                runs.stream().allMatch(r -> r.statuses().keySet().stream().allMatch(c -> c == 200));
        if (!allOk) {
            md.append(
                    "\n**Warning: not every answer was 200: raise the limit so the limited endpoint never rejects.**\n");
        }
        md.append("\n## Environment\n\n").append(Environment.markdown(env));
        Files.writeString(out.resolve("http.md"), md);
    }
}
