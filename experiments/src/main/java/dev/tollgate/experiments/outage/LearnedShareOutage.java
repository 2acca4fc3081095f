package dev.tollgate.experiments.outage;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.engine.Engine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 24: the local fallback's share learned from the live servers. Two and three servers (engines on one
 * Redis, each group under a key prefix of its own so that it counts itself) take one client's calls, 50 a
 * second round robin, above a token bucket of 20 refilling 10 a second, while Redis is SIGSTOPped and every
 * breaker is open: with {@code tollgate.local-fallback-servers=auto} (the default, the count each server
 * learned by its heartbeat before the outage) and with {@code 1} (the old default, each server the whole
 * limit). Admissions are compared with what the limit allows over the time the calls took.
 */
public final class LearnedShareOutage {

    static final int CAPACITY = 20;
    static final int REFILL_PER_SECOND = 10;

    private LearnedShareOutage() {}

    record Row(int servers, String setting, int learned, int checks, long nanos, int admitted, int degraded) {
        double allows() {
            return CAPACITY + REFILL_PER_SECOND * nanos / 1e9;
        }
    }

    private static Engine server(String url, String prefix, String servers) {
        Map<String, String> p = new HashMap<>();
        p.put("tollgate.redis.url", url);
        p.put("tollgate.redis.key-prefix", prefix);
        p.put("tollgate.redis.timeout", "250ms");
        p.put("tollgate.local-fallback-servers", servers);
        p.put("tollgate.limits.local.capacity", Integer.toString(CAPACITY));
        p.put("tollgate.limits.local.refill-tokens", Integer.toString(REFILL_PER_SECOND));
        p.put("tollgate.limits.local.refill-period", "1s");
        p.put("tollgate.limits.local.local-fallback", "true");
        return Engine.build(SettingsReader.read(PropertySource.of(p)));
    }

    public static void main(String[] args) throws Exception {
        int at = List.of(args).indexOf("--out");
        Path out = Path.of(at >= 0 ? args[at + 1] : "experiments/results").resolve("issue-24");
        boolean quick = List.of(args).contains("--quick");
        int checks = quick ? 100 : 300;
        List<Row> rows = new ArrayList<>();
        try (LocalRedis redis = LocalRedis.start()) {
            for (int n : new int[] {2, 3}) {
                for (String setting : new String[] {"auto", "1"}) {
                    rows.add(run(redis, n, setting, checks));
                }
            }
        }
        Files.createDirectories(out);
        Files.writeString(out.resolve("outage-fallback.md"), markdown(rows, checks));
    }

    private static Row run(LocalRedis redis, int n, String setting, int checks) throws Exception {
        String prefix = "s" + n + "-" + setting + ":";
        List<Engine> engines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            engines.add(server(redis.url(), prefix, setting));
        }
        try {
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (engines.stream().anyMatch(e -> e.servers().live() != n)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("the servers did not count each other within 20 s");
                }
                Thread.sleep(50);
            }
            int learned = engines.get(0).servers().live();
            redis.pause();
            try {
                for (Engine e : engines) {
                    for (int i = 0; i < 10 && !e.breakerState().orElseThrow().isOpen(); i++) {
                        e.check("local", "opens-the-breaker");
                    }
                }
                String client = "client";
                long interval = 1_000_000_000L / 50;
                int admitted = 0;
                int degraded = 0;
                long start = System.nanoTime();
                long last = start;
                for (int i = 0; i < checks; i++) {
                    long wait = start + i * interval - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    }
                    var d = engines.get(i % n).check("local", client);
                    last = System.nanoTime();
                    admitted += d.allowed() ? 1 : 0;
                    degraded += d.degraded() ? 1 : 0;
                }
                Row r = new Row(n, setting, learned, checks, last - start, admitted, degraded);
                System.out.printf(
                        Locale.ROOT,
                        "learned share: %d servers, local-fallback-servers=%s: %d of %d admitted in %.2f s;"
                                + " the limit allows %.0f (%.2fx)%n",
                        n,
                        setting,
                        admitted,
                        checks,
                        r.nanos() / 1e9,
                        r.allows(),
                        admitted / r.allows());
                return r;
            } finally {
                redis.resume();
            }
        } finally {
            engines.forEach(Engine::close);
        }
    }

    private static String markdown(List<Row> rows, int checks) {
        StringBuilder md =
                new StringBuilder("# Issue 24: the local fallback's share, learned from the live servers\n\n");
        md.append("Command: `experiments/run outage-servers` (")
                .append(checks)
                .append(
                        " calls per row). One client's calls, 50 a second round robin between the servers (engines on one")
                .append(" Redis, each group under its own key prefix), against a token bucket of ")
                .append(CAPACITY)
                .append(" refilling ")
                .append(REFILL_PER_SECOND)
                .append(" a second, local fallback on, budget 250 ms, Redis SIGSTOPped after every server counted the")
                .append(
                        " others by its heartbeat, each server's breaker open. \"The limit allows\" is capacity + refill x")
                .append(" the seconds the calls took.\n\n");
        md.append(
                "| servers | `local-fallback-servers` | count learned | calls | seconds | admitted | the limit allows | ratio | degraded |\n");
        md.append("|---|---|---|---|---|---|---|---|---|\n");
        for (Row r : rows) {
            md.append(String.format(
                    Locale.ROOT,
                    "| %d | `%s` | %d | %d | %.2f | %d | %.0f | %.2fx | %d |%n",
                    r.servers(),
                    r.setting(),
                    r.learned(),
                    r.checks(),
                    r.nanos() / 1e9,
                    r.admitted(),
                    r.allows(),
                    r.admitted() / r.allows(),
                    r.degraded()));
        }
        md.append("\n");
        return md.toString();
    }
}
