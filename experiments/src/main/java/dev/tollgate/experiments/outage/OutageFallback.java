package dev.tollgate.experiments.outage;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.engine.Engine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Over-admission while Redis hangs (issue 13's local fallback): two servers (two {@link Tollgate}s on one
 * Redis) take a steady demand of one client's calls, above the limit, while Redis is SIGSTOPped, under a
 * fail-open limit, a fail-closed one and a local fallback (the default share, the whole capacity per
 * server, and {@code tollgate.local-fallback-servers=2}); first the same demand on a healthy Redis, the
 * exact count. Each server's breaker is opened first (its first 3 checks wait out the budget), so every
 * mode is measured on the same footing. Each mode's admissions are compared with what the limit allows over the time the calls
 * took: {@code capacity + refill rate x seconds}.
 */
final class OutageFallback {

    static final int CAPACITY = 20;
    static final int REFILL_PER_SECOND = 10;
    static final int SERVERS = 2;

    /** One mode's run: how many calls, over how long, how many passed, of them degraded. */
    record Row(String mode, String setting, int checks, long nanos, int admitted, int degraded) {
        double exact() {
            return CAPACITY + REFILL_PER_SECOND * nanos / 1e9;
        }

        double ratio() {
            return admitted / exact();
        }
    }

    private OutageFallback() {}

    /** The limits of one server; {@code servers} is its {@code tollgate.local-fallback-servers}. */
    private static Engine server(String url, int servers) {
        Map<String, String> p = new HashMap<>();
        p.put("tollgate.redis.url", url);
        p.put("tollgate.redis.timeout", OutageExperiment.BUDGET.toMillis() + "ms");
        p.put("tollgate.local-fallback-servers", Integer.toString(servers));
        for (String limit : List.of("open", "closed", "local")) {
            p.put("tollgate.limits." + limit + ".capacity", Integer.toString(CAPACITY));
            p.put("tollgate.limits." + limit + ".refill-tokens", Integer.toString(REFILL_PER_SECOND));
            p.put("tollgate.limits." + limit + ".refill-period", "1s");
        }
        p.put("tollgate.limits.closed.fail-open", "false");
        p.put("tollgate.limits.local.local-fallback", "true");
        return Engine.build(SettingsReader.read(PropertySource.of(p)));
    }

    /** Runs every mode; Redis is healthy when called and again when it returns. */
    static List<Row> run(LocalRedis redis, boolean quick) throws Exception {
        int perSecond = 50;
        int checks = quick ? 100 : 1000;
        List<Row> rows = new ArrayList<>();
        List<Engine> wholeShare = List.of(server(redis.url(), 1), server(redis.url(), 1));
        List<Engine> halfShare = List.of(server(redis.url(), SERVERS), server(redis.url(), SERVERS));
        try {
            for (Engine t : concat(wholeShare, halfShare)) {
                for (int i = 0; i < 20; i++) {
                    if (t.check("open", "warm-up").degraded()) {
                        throw new IllegalStateException("a degraded decision during warm-up: Redis is not healthy");
                    }
                }
            }
            rows.add(demand("redis-answers", "fail-open (any)", wholeShare, "open", checks, perSecond));
            redis.pause();
            try {
                // Each server's first 3 checks wait out the budget and open its breaker (the phases above): the
                // rows measure the outage after that, each mode on the same footing.
                for (Engine t : concat(wholeShare, halfShare)) {
                    for (int i = 0; i < 10 && !t.breakerState().orElseThrow().isOpen(); i++) {
                        t.check("open", "opens-the-breaker");
                    }
                    if (!t.breakerState().orElseThrow().isOpen()) {
                        throw new IllegalStateException("10 checks on a hung Redis did not open the breaker");
                    }
                }
                rows.add(demand("hung-fail-open", "fail-open=true", wholeShare, "open", checks, perSecond));
                rows.add(demand("hung-fail-closed", "fail-open=false", wholeShare, "closed", checks, perSecond));
                rows.add(demand(
                        "hung-local-fallback",
                        "local-fallback=true, local-fallback-servers=1 (default)",
                        wholeShare,
                        "local",
                        checks,
                        perSecond));
                rows.add(demand(
                        "hung-local-fallback-shared",
                        "local-fallback=true, local-fallback-servers=" + SERVERS,
                        halfShare,
                        "local",
                        checks,
                        perSecond));
            } finally {
                redis.resume();
            }
        } finally {
            for (Engine t : concat(wholeShare, halfShare)) {
                t.close();
            }
        }
        return rows;
    }

    /** {@code checks} calls of one client, {@code perSecond} a second, alternating between the servers. */
    private static Row demand(
            String mode, String setting, List<Engine> servers, String limit, int checks, int perSecond) {
        String client = "client-" + mode;
        long interval = 1_000_000_000L / perSecond;
        int admitted = 0;
        int degraded = 0;
        long start = System.nanoTime();
        long last = start;
        for (int i = 0; i < checks; i++) {
            long due = start + i * interval;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            var d = servers.get(i % servers.size()).check(limit, client);
            last = System.nanoTime();
            admitted += d.allowed() ? 1 : 0;
            degraded += d.degraded() ? 1 : 0;
        }
        Row r = new Row(mode, setting, checks, last - start, admitted, degraded);
        System.out.printf(
                Locale.ROOT,
                "outage fallback: %-30s %4d of %d admitted in %.2f s; the limit allows %.0f (%.2fx)%n",
                mode,
                r.admitted(),
                checks,
                r.nanos() / 1e9,
                r.exact(),
                r.ratio());
        return r;
    }

    static void write(Path out, List<Row> rows) throws IOException {
        StringBuilder csv =
                new StringBuilder("mode,setting,servers,checks,seconds,admitted,limit_allows,ratio,degraded\n");
        for (Row r : rows) {
            csv.append(String.format(
                    Locale.ROOT,
                    "%s,%s,%d,%d,%.3f,%d,%.1f,%.3f,%d%n",
                    r.mode(),
                    r.setting().replace(",", ";"),
                    SERVERS,
                    r.checks(),
                    r.nanos() / 1e9,
                    r.admitted(),
                    r.exact(),
                    r.ratio(),
                    r.degraded()));
        }
        Files.writeString(out.resolve("outage-fallback.csv"), csv);
    }

    /** The section of outage.md. */
    static String markdown(List<Row> rows) {
        StringBuilder md = new StringBuilder("## Over-admission while Redis hangs (local fallback)\n\n");
        md.append(String.format(
                Locale.ROOT,
                "One client's calls, %d a second alternating between %d servers (two `Tollgate`s on the one Redis),"
                        + " against a token bucket of %d refilling %d a second; budget %d ms; on a hung Redis after each"
                        + " server's breaker opened. \"The limit allows\" is capacity + refill x the seconds the"
                        + " calls took.%n%n",
                50,
                SERVERS,
                CAPACITY,
                REFILL_PER_SECOND,
                OutageExperiment.BUDGET.toMillis()));
        md.append("| mode | setting | calls | seconds | admitted | the limit allows | ratio | degraded |\n");
        md.append("|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %s | `%s` | %d | %.2f | %d | %.0f | %.2fx | %d |%n",
                    r.mode(),
                    r.setting(),
                    r.checks(),
                    r.nanos() / 1e9,
                    r.admitted(),
                    r.exact(),
                    r.ratio(),
                    r.degraded()));
        }
        md.append("\n");
        return md.toString();
    }

    private static List<Engine> concat(List<Engine> a, List<Engine> b) {
        List<Engine> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
