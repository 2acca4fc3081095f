package dev.tollgate.experiments.outage;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.experiments.common.Environment;
import dev.tollgate.experiments.common.LocalRedis;
import dev.tollgate.experiments.common.Options;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.guard.BreakerState;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.logging.Level;
import java.util.logging.Logger;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;

/**
 * The article's outage experiment against Tollgate's guard: sequential checks through {@link
 * Tollgate#check}, built from settings as a user builds it, while one redis-server process is healthy,
 * SIGKILLed, restarted on the same port, SIGSTOPped (first with a breaker that never opens, the article's
 * situation, then with Tollgate's breaker), SIGCONTed, paused for writes ({@code CLIENT PAUSE WRITE}) and
 * unpaused; then, through a TCP proxy ({@link TcpLink}), a frozen link and a link slower than the budget,
 * each healed. Then two servers' over-admission while it hangs with fail-open, fail-closed and a local
 * fallback ({@link OutageFallback}). Every check is timed with {@link System#nanoTime()}; each phase also
 * compares its monotonic and wall-clock durations, since a machine that sleeps stalls every timer.
 */
public final class OutageExperiment {

    static final Duration BUDGET = Duration.ofMillis(250);
    /** Tollgate's default {@code tollgate.redis.pool-size}: connections, and the guard's worker threads. */
    static final int POOL = 16;
    /** A bucket that never runs dry during the run: every non-degraded decision is an allow. */
    static final String LIMIT = "outage";

    static final Duration RECOVERY_LIMIT = Duration.ofSeconds(10);
    /** How long the unrecorded warm-up may wait for a run of healthy decisions. */
    static final Duration WARM_UP_LIMIT = Duration.ofSeconds(60);

    static final Duration WARM_UP_PAUSE = Duration.ofMillis(10);
    /** The slow link's delay on every reply: longer than the budget, as in {@code RedisOutageTest}. */
    static final Duration SLOW_LINK = BUDGET.plusMillis(150);

    /** One check: its phase, its index in the phase, how long it took, its decision, the breaker after it. */
    record Check(
            Phase phase,
            int index,
            long nanos,
            boolean allowed,
            boolean degraded,
            boolean guardOpenAfter,
            String cause) {
        String outcome() {
            return (degraded ? "degraded-" : "redis-") + (allowed ? "allowed" : "denied");
        }
    }

    /**
     * One phase.
     *
     * @param faultNanos how long causing or ending the fault took (kill, restart until PING, a signal)
     * @param recoveryNanos from the fault's end until the breaker-on guard let checks through again,
     *     polled without making checks; 0 when it was not open; -1 when it did not recover in time
     * @param openedAfter the index of the check after which the breaker-on guard was open, or -1
     * @param probes background probes the breaker-on guard sent during the phase
     */
    record PhaseRun(
            Phase phase,
            List<Check> checks,
            long faultNanos,
            long recoveryNanos,
            int openedAfter,
            long probes,
            long monoNanos,
            long wallNanos) {

        /** Wall-clock time minus monotonic time over the phase: a machine that slept shows seconds here. */
        long clockGapNanos() {
            return wallNanos - monoNanos;
        }
    }

    private OutageExperiment() {}

    /** Tollgate's settings as a user writes them: the defaults but for the limit, fail open. */
    static TollgateSettings settings(String url) {
        return SettingsReader.read(PropertySource.of(Map.of(
                "tollgate.redis.url",
                url,
                "tollgate.redis.timeout",
                BUDGET.toMillis() + "ms",
                "tollgate.redis.pool-size",
                Integer.toString(POOL),
                "tollgate.limits." + LIMIT + ".capacity",
                "1000000000",
                "tollgate.limits." + LIMIT + ".refill-tokens",
                "1000000",
                "tollgate.limits." + LIMIT + ".refill-period",
                "1s",
                "tollgate.limits." + LIMIT + ".key",
                "global")));
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args, Path.of("results"));
        int checks = options.quick() ? 20 : 300;
        int warmup = options.quick() ? 50 : 500;
        Files.createDirectories(options.out());
        // The guard logs once per outage and once per recovery; keep the experiment's output its own.
        Logger.getLogger("dev.tollgate").setLevel(Level.SEVERE);

        try (LocalRedis redis = LocalRedis.start()) {
            Map<String, String> env = Environment.describe(redis);
            env.put("budget", BUDGET.toMillis() + " ms (connect and socket timeouts too, as in a server)");
            env.put("pool", POOL + " connections, " + POOL + " guard workers (Tollgate's default pool size)");
            System.out.printf(
                    "outage: %d sequential checks per phase, budget %d ms; Redis %s on port %d (pid stays the same"
                            + " except across the restart)%n",
                    checks, BUDGET.toMillis(), redis.version(), redis.port());
            Instant runWall = Instant.now();
            long runMono = System.nanoTime();
            List<PhaseRun> runs = run(redis, checks, warmup);
            List<OutageFallback.Row> fallback = OutageFallback.run(redis, options.quick());
            long runWallNanos = Duration.between(runWall, Instant.now()).toNanos();
            long runMonoNanos = System.nanoTime() - runMono;
            env.put("load average at end", Environment.loadAverage());
            env.put(
                    "run duration",
                    String.format(
                            "%.1f s monotonic (System.nanoTime), %.1f s wall clock (Instant)",
                            runMonoNanos / 1e9, runWallNanos / 1e9));
            OutageReport.write(options.out(), env, checks, warmup, runs, runWallNanos - runMonoNanos);
            OutageFallback.write(options.out(), fallback);
            Files.writeString(
                    options.out().resolve("outage.md"),
                    OutageFallback.markdown(fallback),
                    java.nio.file.StandardOpenOption.APPEND);
            System.out.println("outage: wrote outage.csv, outage-phases.csv, outage-fallback.csv, outage.md and"
                    + " outage.png to " + options.out());
        }
    }

    private static List<PhaseRun> run(LocalRedis redis, int checks, int warmup) throws Exception {
        TollgateSettings settings = settings(redis.url());
        TollgateSettings neverOpens = settings.withGuard(settings.guard().withFailureThreshold(Integer.MAX_VALUE));
        // Why each degraded check was degraded, as the guard says (cause "timeout": it waited for Redis).
        AtomicReference<String> cause = new AtomicReference<>("");
        DecisionListener causes = new DecisionListener() {
            @Override
            public void onDecision(LimitSpec limit, Decision decision, long nanos) {
                cause.set("");
            }

            @Override
            public void onDegraded(LimitSpec limit, Decision decision, DegradedCause why, long nanos) {
                cause.set(why.tag());
            }
        };
        try (Engine breakerOn = Engine.builder(settings).listener(causes).build();
                Engine breakerOff = Engine.builder(neverOpens).listener(causes).build();
                ThroughLink throughLink = new ThroughLink(redis, causes, warmup)) {
            // Unrecorded: JIT, connections and both guards' worker threads warm before the first phase.
            warmUp(i -> i % 2 == 0 ? breakerOn : breakerOff, warmup, "warm-up");

            List<PhaseRun> runs = new ArrayList<>();
            for (Phase phase : Phase.values()) {
                Engine current =
                        switch (phase.guard) {
                            case BREAKER_ON -> breakerOn;
                            case BREAKER_OFF -> breakerOff;
                            case THROUGH_LINK -> throughLink.tollgate();
                        };
                BreakerState state = current.breakerState().orElseThrow();
                if (phase.outageWithBreaker() && state.isOpen()) {
                    throw new IllegalStateException(phase.id + " must start from a closed breaker");
                }
                Instant wall0 = Instant.now();
                long mono0 = System.nanoTime();
                long probes0 = state.probesSent();
                long fault0 = System.nanoTime();
                switch (phase) {
                    case HEALTHY, HUNG_BREAKER_ON, LINK_HEALTHY -> {}
                    case DEAD -> redis.kill();
                    case RESTARTED -> redis.restart();
                    case HUNG_BREAKER_OFF -> redis.pause();
                    case RESUMED -> redis.resume();
                    case PAUSED_WRITE -> pauseWrites(redis);
                    case UNPAUSED -> unpause(redis);
                    case LINK_FROZEN -> throughLink.link().freeze();
                    case LINK_THAWED -> throughLink.link().unfreeze();
                    case LINK_SLOW -> throughLink.link().slow(SLOW_LINK.toMillis());
                    case LINK_FAST -> throughLink.link().fast();
                }
                long faultNanos = System.nanoTime() - fault0;
                long recovery = phase.recovers() ? awaitClosed(state) : 0;

                List<Check> done = new ArrayList<>(checks);
                int openedAfter = -1;
                for (int i = 0; i < checks; i++) {
                    cause.set("");
                    long start = System.nanoTime();
                    Decision d = current.check(LIMIT, "client");
                    long took = System.nanoTime() - start;
                    boolean open = state.isOpen();
                    if (open && openedAfter < 0) {
                        openedAfter = i;
                    }
                    done.add(new Check(phase, i, took, d.allowed(), d.degraded(), open, cause.get()));
                }
                long monoNanos = System.nanoTime() - mono0;
                long wallNanos = Duration.between(wall0, Instant.now()).toNanos();
                PhaseRun r = new PhaseRun(
                        phase,
                        List.copyOf(done),
                        faultNanos,
                        recovery,
                        openedAfter,
                        state.probesSent() - probes0,
                        monoNanos,
                        wallNanos);
                runs.add(r);
                System.out.println(OutageReport.progressLine(r));
            }
            return runs;
        } finally {
            try {
                redis.resume(); // whatever happened, never leave a stopped process behind
                unpause(redis);
            } catch (java.io.IOException | RuntimeException notRunning) {
                // killed and not restarted: nothing to resume
            }
        }
    }

    /** {@code CLIENT PAUSE WRITE} for a minute (the phase ends it long before): every script waits. */
    private static void pauseWrites(LocalRedis redis) {
        try (Jedis admin = redis.admin()) {
            admin.clientPause(Duration.ofMinutes(1).toMillis(), ClientPauseMode.WRITE);
        }
    }

    private static void unpause(LocalRedis redis) {
        try (Jedis admin = redis.admin()) {
            admin.clientUnpause();
        }
    }

    /** Polls (no checks) until the guard lets checks through again; the time from now, 0, or -1. */
    private static long awaitClosed(BreakerState guard) {
        long start = System.nanoTime();
        if (!guard.isOpen()) {
            return 0;
        }
        long deadline = start + RECOVERY_LIMIT.toNanos();
        while (guard.isOpen()) {
            if (System.nanoTime() > deadline) {
                return -1;
            }
            LockSupport.parkNanos(100_000);
        }
        return Math.max(1, System.nanoTime() - start);
    }

    /**
     * Unrecorded checks until {@code checks} in a row are healthy. A fresh engine's first calls (class loading,
     * connections, the guard's threads) can outlast the 250 ms budget on a loaded machine, and the breaker may open
     * on them; the phases must start warm and closed, so a degraded warm-up check starts the count again, and only
     * a Redis that stays unhealthy for {@link #WARM_UP_LIMIT} fails the run.
     */
    static void warmUp(IntFunction<Engine> engine, int checks, String when) {
        long deadline = System.nanoTime() + WARM_UP_LIMIT.toNanos();
        int healthy = 0;
        for (int i = 0; healthy < checks; i++) {
            if (!engine.apply(i).check(LIMIT, "warm-up").degraded()) {
                healthy++;
                continue;
            }
            healthy = 0;
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no " + checks + " healthy decisions in a row during " + when
                        + " within " + WARM_UP_LIMIT.toSeconds() + " s: Redis is not healthy");
            }
            LockSupport.parkNanos(WARM_UP_PAUSE.toNanos());
        }
    }
}
