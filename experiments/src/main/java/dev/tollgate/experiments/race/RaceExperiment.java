package dev.tollgate.experiments.race;

import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import redis.clients.jedis.Jedis;

/**
 * The race: a bucket of 100 tokens that never refills, 1000 checks, 10 trials per configuration, the
 * naive check against Tollgate's script. Trials are interleaved across configurations, so a change of
 * load or CPU placement during the run hits every row alike.
 */
public final class RaceExperiment {

    static final long CAPACITY = 100;
    static final int CHECKS = 1000;

    static final List<Config> CONFIGS = List.of(
            Config.inProcess(Variant.POOL, 1, "1 at a time"),
            Config.inProcess(Variant.ONE_CONNECTION, 2, "1 JVM, 2 in flight on one connection"),
            Config.inProcess(Variant.ONE_CONNECTION, 8, "1 JVM, 8 in flight on one connection"),
            Config.inProcess(Variant.ONE_CONNECTION, 32, "1 JVM, 32 in flight on one connection"),
            Config.inProcess(Variant.POOL, 2, "1 JVM, 2 threads, pooled connections"),
            Config.inProcess(Variant.POOL, 8, "1 JVM, 8 threads, pooled connections"),
            Config.inProcess(Variant.POOL, 32, "1 JVM, 32 threads, pooled connections"),
            Config.processes(Variant.ONE_CONNECTION, 4, 8, "4 JVMs, 8 in flight each on one connection"),
            Config.processes(Variant.POOL, 4, 8, "4 JVMs, 8 threads each, pooled connections"));

    private RaceExperiment() {}

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, Path.of("results"));
        int trials = options.quick() ? 2 : 10;
        Files.createDirectories(options.out());
        try (LocalRedis redis = LocalRedis.start()) {
            Map<String, String> env = Environment.describe(redis);
            System.out.printf(
                    "race: capacity %d, %d checks, %d trials x %d configurations x 2 checks; Redis %s on port %d%n",
                    CAPACITY, CHECKS, trials, CONFIGS.size(), redis.version(), redis.port());
            try (Jedis admin = redis.admin()) {
                admin.scriptLoad(
                        RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET).source());
            }
            List<RaceResult> results = run(redis, trials);
            env.put("load average at end", Environment.loadAverage());
            RaceReport.write(options.out(), env, trials, results);
            String monitor = MonitorCapture.capture(redis);
            Files.writeString(options.out().resolve("race-monitor.txt"), monitor);
            System.out.println("race: wrote race.csv, race.md, race.png and race-monitor.txt to " + options.out());
        }
    }

    private static List<RaceResult> run(LocalRedis redis, int trials) throws Exception {
        List<RaceResult> results = new ArrayList<>();
        Map<Config, PoolRace> pools = new HashMap<>();
        try (Jedis oneConnection = redis.admin()) {
            for (Config c : CONFIGS) {
                if (c.processes() == 1 && c.variant() == Variant.POOL) {
                    pools.put(c, new PoolRace(redis.url(), c.inFlight()));
                }
            }
            // One unrecorded round first, so the JIT and the connections are warm in every row.
            for (int trial = 0; trial <= trials; trial++) {
                StringBuilder line = new StringBuilder(trial == 0 ? "warm-up " : "trial " + trial + "/" + trials);
                for (Config c : CONFIGS) {
                    if (trial == 0 && c.processes() > 1) {
                        continue;
                    }
                    line.append(" | ").append(c.id()).append(':');
                    for (Impl impl : Impl.values()) {
                        String key = "race:" + impl.id + ":" + c.id() + ":" + trial;
                        int admitted = once(redis, oneConnection, pools.get(c), c, impl, key);
                        line.append(' ').append(impl.id).append('=').append(admitted);
                        if (trial > 0) {
                            results.add(new RaceResult(c, impl, trial, admitted));
                        }
                    }
                }
                System.out.println(line);
            }
        } finally {
            pools.values().forEach(PoolRace::close);
        }
        return results;
    }

    private static int once(LocalRedis redis, Jedis oneConnection, PoolRace pool, Config c, Impl impl, String key)
            throws Exception {
        if (c.processes() > 1) {
            return MultiProcessRace.run(c, impl, redis.port(), key, CAPACITY, CHECKS);
        }
        if (c.variant() == Variant.POOL) {
            return pool.run(impl, key, CAPACITY, CHECKS);
        }
        return new OneConnectionRace(oneConnection.getConnection(), impl, key, CAPACITY).run(c.inFlight(), CHECKS);
    }
}
