package dev.tollgate.experiments.overload;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.LimitPolicy;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.internal.redis.RedisUrl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Issue 22, finding 3: the application's own CPU overloaded against a healthy Redis, with the default
 * budget (250 ms) and pool (16). Redis runs alone on CPU 0 ({@code taskset}); this JVM on CPU 1
 * ({@code experiments/run overload} pins it), with many more caller threads than it can run at once.
 *
 * <ul>
 *   <li>{@code raw}: the same token-bucket script through a plain Jedis pool (16 connections, 2 s
 *       timeout, no guard): what Redis and the client manage in this setup.
 *   <li>{@code tollgate-N}: {@link Tollgate#check} from N threads, built from settings as users build
 *       it (plain Java, Tollgate's own breaker): decisions by source and degraded cause, the local ones,
 *       how many failed open, and whether the breaker opened.
 *   <li>{@code flood}: a fail-open limit of {@value #FLOOD_CAPACITY} calls that never refills, one
 *       client key, a pool of one connection and {@value #FLOOD_THREADS} threads, so that most calls
 *       find the pool full for their whole budget (saturated): admitted calls against the limit plus
 *       this server's local share (README, "What counts as an outage").
 * </ul>
 */
public final class OverloadExperiment {

    static final String LIMIT = "load";
    static final String FLOOD = "flood";
    static final long FLOOD_CAPACITY = 100;
    static final int FLOOD_THREADS = 512;

    private static final Logger QUIET = Logger.getLogger("dev.tollgate");

    /** What one row measured. */
    record Row(
            String name,
            int threads,
            double seconds,
            long decisions,
            long fromRedis,
            long allowed,
            long local,
            long localAllowed,
            long failedOpen,
            Map<DegradedCause, Long> degraded,
            long errors,
            long breakerOpened,
            boolean breakerOpenAtEnd) {

        long degradedTotal() {
            return degraded.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    private OverloadExperiment() {}

    public static void main(String[] args) throws Exception {
        Options o = Options.parse(args, Path.of("experiments/results"));
        Duration run = o.quick() ? Duration.ofSeconds(2) : Duration.ofSeconds(10);
        List<Integer> threadCounts = o.quick() ? List.of(128) : List.of(64, 128, 256);
        QUIET.setLevel(Level.INFO);
        try (LocalRedis redis = LocalRedis.start("0")) {
            Map<String, String> env = Environment.describe(redis);
            List<Row> rows = new ArrayList<>();
            rows.add(raw(redis, 128, run));
            for (int threads : threadCounts) {
                rows.add(tollgate(redis, threads, run));
            }
            rows.add(flood(redis, run));
            env.put("load average at end", Environment.loadAverage());
            OverloadReport.write(o.out(), env, rows, run);
        }
    }

    /** The raw client: the token-bucket script on a Jedis pool of 16, timeout 2 s, no guard. */
    static Row raw(LocalRedis redis, int threads, Duration run) throws Exception {
        LimitPolicy policy =
                new LimitPolicy(LIMIT, LimitPolicy.MAX_COUNT, LimitPolicy.MAX_COUNT, Duration.ofSeconds(1), 1);
        LongAdder answers = new LongAdder();
        LongAdder errors = new LongAdder();
        try (RedisRateLimitStore store = RedisRateLimitStore.connect(
                Algorithm.TOKEN_BUCKET, new RedisSettings(RedisUrl.parse(redis.url()), Duration.ofSeconds(2), 16))) {
            store.tryConsume(policy, "tg:raw:warm");
            drive(threads, run, i -> {
                try {
                    store.tryConsume(policy, "tg:raw:" + (i % 1000));
                    answers.increment();
                } catch (RuntimeException e) {
                    errors.increment();
                }
            });
        }
        long n = answers.sum() + errors.sum();
        return new Row(
                "raw",
                threads,
                run.toMillis() / 1000.0,
                n,
                answers.sum(),
                answers.sum(),
                0,
                0,
                0,
                new EnumMap<>(DegradedCause.class),
                errors.sum(),
                0,
                false);
    }

    /** {@link Tollgate#check} on a limit that never runs dry, default budget and pool, 1000 client keys. */
    static Row tollgate(LocalRedis redis, int threads, Duration run) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("tollgate.redis.url", redis.url());
        settings.put("tollgate.limits." + LIMIT + ".capacity", Long.toString(LimitPolicy.MAX_COUNT));
        settings.put("tollgate.limits." + LIMIT + ".refill-tokens", Long.toString(LimitPolicy.MAX_COUNT));
        return measure("tollgate-" + threads, settings, LIMIT, threads, run, i -> "client-" + (i % 1000));
    }

    /** A fail-open quota of {@value #FLOOD_CAPACITY} on one key, a pool of one connection, many threads. */
    static Row flood(LocalRedis redis, Duration run) throws Exception {
        Map<String, String> settings = new HashMap<>();
        settings.put("tollgate.redis.url", redis.url());
        settings.put("tollgate.redis.pool-size", "1");
        settings.put("tollgate.limits." + FLOOD + ".capacity", Long.toString(FLOOD_CAPACITY));
        settings.put("tollgate.limits." + FLOOD + ".refill-tokens", "0");
        settings.put("tollgate.limits." + FLOOD + ".persist", "true");
        return measure("flood", settings, FLOOD, FLOOD_THREADS, run, i -> "attacker");
    }

    private static Row measure(
            String name,
            Map<String, String> properties,
            String limit,
            int threads,
            Duration run,
            java.util.function.IntFunction<String> key)
            throws Exception {
        TollgateSettings settings = SettingsReader.read(PropertySource.of(properties));
        Counting counting = new Counting();
        BreakerLines lines = new BreakerLines();
        QUIET.addHandler(lines);
        try (Engine tollgate = Engine.builder(settings).listener(counting).build()) {
            awaitWarm(tollgate, limit);
            counting.reset();
            drive(threads, run, i -> {
                Decision d = tollgate.check(limit, key.apply(i));
                if (d.allowed()) {
                    counting.allowed.increment();
                }
            });
            boolean openAtEnd = tollgate.breakerState().map(b -> b.isOpen()).orElse(false);
            return counting.row(name, threads, run, lines.opened.get(), openAtEnd);
        } finally {
            QUIET.removeHandler(lines);
        }
    }

    /** Until one check is decided by Redis: the warm-up loads the scripts and makes a connection. */
    private static void awaitWarm(Engine tollgate, String limit) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < deadline && tollgate.check(limit, "warm-up").degraded()) {
            Thread.sleep(20);
        }
    }

    /** Runs {@code work} from {@code threads} threads for {@code run}, each thread on its own sequence. */
    static void drive(int threads, Duration run, java.util.function.IntConsumer work) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int seed = t;
            Thread th = new Thread(
                    () -> {
                        try {
                            start.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        for (int i = seed; !stop.get(); i += threads) {
                            work.accept(i);
                        }
                    },
                    "overload-" + t);
            th.setDaemon(true);
            th.start();
            all.add(th);
        }
        start.countDown();
        Thread.sleep(run.toMillis());
        stop.set(true);
        for (Thread th : all) {
            th.join(10_000);
        }
    }

    /** Counts decisions as the limiter tells them. */
    static final class Counting implements DecisionListener {
        final LongAdder decisions = new LongAdder();
        final LongAdder fromRedis = new LongAdder();
        final LongAdder allowed = new LongAdder();
        final LongAdder local = new LongAdder();
        final LongAdder localAllowed = new LongAdder();
        final LongAdder failedOpen = new LongAdder();
        final Map<DegradedCause, LongAdder> degraded = new EnumMap<>(DegradedCause.class);

        Counting() {
            for (DegradedCause c : DegradedCause.values()) {
                degraded.put(c, new LongAdder());
            }
        }

        void reset() {
            decisions.reset();
            fromRedis.reset();
            allowed.reset();
            local.reset();
            localAllowed.reset();
            failedOpen.reset();
            degraded.values().forEach(LongAdder::reset);
        }

        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {
            decisions.increment();
            fromRedis.increment();
        }

        @Override
        public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
            decisions.increment();
            degraded.get(cause).increment();
        }

        @Override
        public void onLocalDecision(LimitSpec limit, Decision decision) {
            local.increment();
            if (decision.allowed()) {
                localAllowed.increment();
            }
        }

        Row row(String name, int threads, Duration run, long opened, boolean openAtEnd) {
            Map<DegradedCause, Long> byCause = new EnumMap<>(DegradedCause.class);
            degraded.forEach((c, n) -> {
                if (n.sum() > 0) {
                    byCause.put(c, n.sum());
                }
            });
            long degradedTotal =
                    byCause.values().stream().mapToLong(Long::longValue).sum();
            // A degraded decision that was not made by the local share is the limit's degraded decision:
            // for these fail-open limits, an admission that nothing counted.
            long open = degradedTotal - local.sum();
            return new Row(
                    name,
                    threads,
                    run.toMillis() / 1000.0,
                    decisions.sum(),
                    fromRedis.sum(),
                    allowed.sum(),
                    local.sum(),
                    localAllowed.sum(),
                    open,
                    byCause,
                    0,
                    opened,
                    openAtEnd);
        }
    }

    /** Counts the guard's "is not answering" lines: one per time the breaker opened. */
    static final class BreakerLines extends Handler {
        final AtomicLong opened = new AtomicLong();

        @Override
        public void publish(LogRecord r) {
            String m = r.getMessage();
            if (m != null && m.contains("is not answering")) {
                opened.incrementAndGet();
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    }
}
