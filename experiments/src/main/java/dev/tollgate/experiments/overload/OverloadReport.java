package dev.tollgate.experiments.overload;

import dev.tollgate.DegradedCause;
import dev.tollgate.experiments.common.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code overload.md} (the summary) and {@code overload.csv} (one line per row). */
final class OverloadReport {

    private OverloadReport() {}

    static void write(Path out, Map<String, String> env, List<OverloadExperiment.Row> rows, Duration run)
            throws IOException {
        Files.createDirectories(out);
        StringBuilder csv = new StringBuilder(
                "row,threads,seconds,decisions,from_redis,allowed,local,local_allowed,failed_open,degraded,"
                        + "degraded_by_cause,errors,breaker_opened,breaker_open_at_end\n");
        for (OverloadExperiment.Row r : rows) {
            csv.append(String.join(
                            ",",
                            r.name(),
                            Integer.toString(r.threads()),
                            Double.toString(r.seconds()),
                            Long.toString(r.decisions()),
                            Long.toString(r.fromRedis()),
                            Long.toString(r.allowed()),
                            Long.toString(r.local()),
                            Long.toString(r.localAllowed()),
                            Long.toString(r.failedOpen()),
                            Long.toString(r.degradedTotal()),
                            causes(r.degraded(), ";"),
                            Long.toString(r.errors()),
                            Long.toString(r.breakerOpened()),
                            Boolean.toString(r.breakerOpenAtEnd())))
                    .append('\n');
        }
        Files.writeString(out.resolve("overload.csv"), csv.toString());

        StringBuilder md = new StringBuilder("# Overload: the application's CPU against a healthy Redis\n\n");
        md.append("`experiments/run overload`: Redis alone on CPU 0, this JVM on CPU 1, ")
                .append(run.toSeconds())
                .append(" s per row, default budget (250 ms) and pool (16) unless the row says otherwise.\n\n");
        md.append(Environment.markdown(env)).append('\n');
        md.append("| row | threads | decisions | from Redis | allowed | degraded (by cause) | local share"
                + " (allowed) | failed open | errors | breaker opened |\n");
        md.append("|---|---|---|---|---|---|---|---|---|---|\n");
        for (OverloadExperiment.Row r : rows) {
            md.append("| ")
                    .append(r.name())
                    .append(" | ")
                    .append(r.threads())
                    .append(" | ")
                    .append(r.decisions())
                    .append(" | ")
                    .append(r.fromRedis())
                    .append(" | ")
                    .append(r.allowed())
                    .append(" | ")
                    .append(r.degradedTotal())
                    .append(r.degraded().isEmpty() ? "" : " (" + causes(r.degraded(), ", ") + ")")
                    .append(" | ")
                    .append(r.local())
                    .append(" (")
                    .append(r.localAllowed())
                    .append(')')
                    .append(" | ")
                    .append(r.failedOpen())
                    .append(" | ")
                    .append(r.errors())
                    .append(" | ")
                    .append(r.breakerOpened())
                    .append(r.breakerOpenAtEnd() ? " (open at the end)" : "")
                    .append(" |\n");
        }
        OverloadExperiment.Row flood = rows.get(rows.size() - 1);
        md.append("\nFlood: a fail-open quota of ")
                .append(OverloadExperiment.FLOOD_CAPACITY)
                .append(" on one key (never refills), pool of one connection, ")
                .append(OverloadExperiment.FLOOD_THREADS)
                .append(" threads: **")
                .append(flood.allowed())
                .append(" admitted** (limit ")
                .append(OverloadExperiment.FLOOD_CAPACITY)
                .append(" + local share ")
                .append(OverloadExperiment.FLOOD_CAPACITY)
                .append(" with tollgate.local-fallback-servers=1 = at most ")
                .append(2 * OverloadExperiment.FLOOD_CAPACITY)
                .append(").\n");
        Files.writeString(out.resolve("overload.md"), md.toString());
        System.out.print(md);
    }

    private static String causes(Map<DegradedCause, Long> byCause, String sep) {
        return byCause.entrySet().stream()
                .map(e -> e.getKey().tag() + " " + e.getValue())
                .collect(Collectors.joining(sep));
    }
}
