package dev.tollgate.experiments.lease;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.experiments.common.Stats;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Issue 24: a leased limit's check against a raw {@code EVALSHA} of the token-bucket script on the same
 * hot key. One thread: p50 of each, interleaved in blocks; 8 and 32 threads: checks per second of each,
 * alternated; and Redis script calls ({@code INFO commandstats}) per 1,000 admitted calls at steady
 * demand. The limit: capacity and refill far above what the run spends (the steady state of a hot limit),
 * leased for 1 s, one bucket for every call.
 */
public final class LeaseExperiment {

    private static final long CAPACITY = 1_000_000_000L;

    private LeaseExperiment() {}

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, Path.of("experiments/results/issue-24"));
        int blocks = o.quick() ? 10 : 60;
        long seconds = o.quick() ? 1 : 3;
        StringBuilder md = new StringBuilder("# Issue 24: leased limits against a raw EVALSHA, one hot key\n\n");
        try (LocalRedis redis = LocalRedis.start();
                UnifiedJedis raw = client(redis.url());
                Engine leased = Engine.build(SettingsReader.read(PropertySource.of(settings(redis.url()))))) {
            // Read before the run: its own 32 threads raise the load average it would read at the end.
            Map<String, String> env = Environment.describe(redis);
            String sha = raw.scriptLoad(
                    RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).source());
            List<String> keys = RedisRateLimitStore.keys(StoreKeys.DEFAULT.of("raw", "hot"));
            List<String> argv = List.of(Long.toString(CAPACITY), Long.toString(CAPACITY), "1000000", "1");
            BooleanSupplier evalsha =
                    () -> ((List<?>) raw.evalsha(sha, keys, argv)).get(0).equals(1L);
            BooleanSupplier check = () -> leased.check("hot", "any").allowed();
            for (int i = 0; i < 20_000; i++) {
                evalsha.getAsBoolean();
                check.getAsBoolean();
            }
            List<Long> rawNanos = new ArrayList<>();
            List<Long> leasedNanos = new ArrayList<>();
            for (int b = 0; b < blocks; b++) {
                rawNanos.add(blockMedian(evalsha, 1000));
                leasedNanos.add(blockMedian(check, 1000));
            }
            double rawP50 = Stats.median(rawNanos) / 1000.0;
            double leasedP50 = Stats.median(leasedNanos) / 1000.0;
            md.append("| figure | raw EVALSHA | leased check | leased ÷ raw | goal |\n|---|---|---|---|---|\n");
            md.append(String.format(
                    "| p50, one thread (median of %d blocks of 1,000) | %.2f µs | %.3f µs | %.3f× | ≤ 0.1× |%n",
                    blocks, rawP50, leasedP50, leasedP50 / rawP50));
            for (int threads : new int[] {8, 32}) {
                double r = 0, l = 0;
                for (int round = 0; round < 3; round++) {
                    r += throughput(evalsha, threads, seconds);
                    l += throughput(check, threads, seconds);
                }
                md.append(String.format(
                        "| throughput, %d threads (3 alternated rounds of %d s) | %,.0f /s | %,.0f /s | %.1f× | ≥ 10× |%n",
                        threads, seconds, r / 3, l / 3, l / r));
            }
            leased.limiter().returnLeases();
            try (var admin = redis.admin()) {
                admin.configResetStat();
                long admitted = 0;
                long calls = o.quick() ? 100_000 : 1_000_000;
                for (long i = 0; i < calls; i++) {
                    admitted += check.getAsBoolean() ? 1 : 0;
                }
                long scripts = scriptCalls(admin.info("commandstats"));
                md.append(String.format(
                        "| Redis script calls per 1,000 admitted, one thread, %,d calls | 1,000 | %.2f | | ≤ 20 |%n",
                        calls, 1000.0 * scripts / admitted));
            }
            md.append("\nThe limit: capacity and refill ")
                    .append(CAPACITY)
                    .append(" per second, `lease=1s`, `key=global`, one server (`ServerCount.ONE`).")
                    .append(" Command: `experiments/run lease`")
                    .append(o.quick() ? " --quick" : "")
                    .append(".\n\n")
                    .append(Environment.markdown(env))
                    .append("- load average at end: ")
                    .append(Environment.loadAverage())
                    .append('\n');
        }
        Files.createDirectories(o.out());
        Files.writeString(o.out().resolve("lease.md"), md.toString());
        System.out.print(md);
    }

    /** A pool of 32 connections: one per thread of the widest row. */
    private static UnifiedJedis client(String url) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(32);
        pool.setMaxIdle(32);
        return RedisClient.builder()
                .fromURI(java.net.URI.create(url))
                .poolConfig(pool)
                .build();
    }

    private static Map<String, String> settings(String url) {
        String p = "tollgate.limits.hot.";
        return Map.of(
                "tollgate.redis.url",
                url,
                p + "capacity",
                Long.toString(CAPACITY),
                p + "refill-tokens",
                Long.toString(CAPACITY),
                p + "refill-period",
                "1s",
                p + "key",
                "global",
                p + "lease",
                "1s");
    }

    /** The median of {@code n} calls' times, in ns. */
    private static long blockMedian(BooleanSupplier call, int n) {
        long[] t = new long[n];
        for (int i = 0; i < n; i++) {
            long start = System.nanoTime();
            call.getAsBoolean();
            t[i] = System.nanoTime() - start;
        }
        return (long) Stats.percentile(Stats.sorted(t), 50);
    }

    private static double throughput(BooleanSupplier call, int threads, long seconds) throws InterruptedException {
        LongAdder done = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> all = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                while (!stop.get()) {
                    call.getAsBoolean();
                    done.increment();
                }
            });
            t.start();
            all.add(t);
        }
        long start = System.nanoTime();
        Thread.sleep(seconds * 1000);
        stop.set(true);
        for (Thread t : all) {
            t.join();
        }
        return done.sum() / ((System.nanoTime() - start) / 1e9);
    }

    /** The calls of EVALSHA and EVAL in {@code INFO commandstats}. */
    private static long scriptCalls(String info) {
        long n = 0;
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                n += Long.parseLong(line.replaceAll(".*calls=(\\d+).*", "$1"));
            }
        }
        return n;
    }
}
