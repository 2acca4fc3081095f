package dev.tollgate.experiments.bench;

import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.MonitorTap;
import io.github.bucket4j.distributed.BucketProxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntPredicate;
import redis.clients.jedis.Jedis;

/**
 * What one check costs Redis in commands: round trips (commands a client sent, from {@code MONITOR})
 * and every command executed including a script's own calls ({@code INFO commandstats} deltas).
 */
final class CommandCount {

    /** A measured check: how many threads ran it, on which keys, and what it did per check. */
    record Row(
            String check,
            String keys,
            int threads,
            int checks,
            double roundTrips,
            double commands,
            String perCommand) {}

    private CommandCount() {}

    static List<Row> measure(LocalRedis redis, int checks) throws Exception {
        List<Row> rows = new ArrayList<>();
        try (Checks c = new Checks(redis.url(), 16)) {
            BucketProxy hot = c.bucket4jBucket(Checks.key("bucket4j", "count-hot"));
            BucketProxy spread = c.bucket4jBucket(Checks.key("bucket4j", "count-spread"));
            rows.add(count(redis, "PING", "-", 1, checks, i -> c.ping() != null));
            rows.add(count(
                    redis,
                    "Tollgate (EVALSHA)",
                    "spread",
                    1,
                    checks,
                    i -> c.tollgate(Checks.key("tollgate", "count-" + i % 16))));
            rows.add(count(redis, "guarded (Tollgate.check)", "spread", 1, checks, i -> c.guarded("count-" + i % 16)));
            rows.add(count(redis, "Bucket4j (CAS)", "spread", 1, checks, i -> Checks.bucket4j(spread)));
            rows.add(count(
                    redis,
                    "naive HMGET+HSET",
                    "spread",
                    1,
                    checks,
                    i -> c.naive(Checks.key("naive", "count-" + i % 16))));
            rows.add(count(
                    redis,
                    "Tollgate (EVALSHA)",
                    "one hot key",
                    8,
                    checks,
                    i -> c.tollgate(Checks.key("tollgate", "count-hot"))));
            rows.add(count(redis, "Bucket4j (CAS)", "one hot key", 8, checks, i -> Checks.bucket4j(hot)));
        }
        return rows;
    }

    private static Row count(LocalRedis redis, String check, String keys, int threads, int checks, IntPredicate once)
            throws Exception {
        run(threads, Math.min(checks, 200), once); // connections open, buckets exist
        try (Jedis admin = redis.admin()) {
            admin.configResetStat();
        }
        List<String> lines;
        try (MonitorTap tap = MonitorTap.start(redis)) {
            run(threads, checks, once);
            lines = tap.stop();
        }
        Map<String, Long> calls;
        try (Jedis admin = redis.admin()) {
            calls = commandStats(admin.info("commandstats"));
        }
        long sent = lines.stream().filter(l -> !MonitorTap.fromScript(l)).count();
        long all = calls.values().stream().mapToLong(Long::longValue).sum();
        StringBuilder per = new StringBuilder();
        calls.forEach((name, n) -> per.append(per.length() == 0 ? "" : ", ")
                .append(name)
                .append(' ')
                .append(String.format("%.2f", (double) n / checks)));
        return new Row(check, keys, threads, checks, (double) sent / checks, (double) all / checks, per.toString());
    }

    /** {@code cmdstat_<name>:calls=N,...} lines, without the commands this measurement itself sends. */
    static Map<String, Long> commandStats(String info) {
        Map<String, Long> calls = new TreeMap<>();
        for (String line : info.split("\r?\n")) {
            if (!line.startsWith("cmdstat_")) {
                continue;
            }
            String name = line.substring("cmdstat_".length(), line.indexOf(':'));
            if (name.startsWith("config") || name.equals("info") || name.equals("echo") || name.equals("monitor")) {
                continue;
            }
            String n = line.substring(line.indexOf("calls=") + 6);
            calls.put(name, Long.parseLong(n.substring(0, n.indexOf(','))));
        }
        return calls;
    }

    private static void run(int threads, int checks, IntPredicate once) throws InterruptedException {
        List<Thread> ts = new ArrayList<>();
        java.util.concurrent.atomic.AtomicInteger left = new java.util.concurrent.atomic.AtomicInteger(checks);
        java.util.concurrent.atomic.AtomicReference<RuntimeException> error =
                new java.util.concurrent.atomic.AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                try {
                    int i;
                    while ((i = left.getAndDecrement()) > 0) {
                        once.test(i);
                    }
                } catch (RuntimeException e) {
                    error.set(e);
                }
            });
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join();
        }
        if (error.get() != null) {
            throw error.get();
        }
    }
}
