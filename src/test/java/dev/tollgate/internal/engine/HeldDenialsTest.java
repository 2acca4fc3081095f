package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientOverride;
import dev.tollgate.Decision;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.guard.Breaker;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** A flood on an exhausted key costs Redis nothing: counted in Redis's own command statistics. */
class HeldDenialsTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final AtomicInteger held = new AtomicInteger();

    private Engine tollgate(String algorithm, String localDenials) {
        return withListener(Engine.builder(TestSettings.read(
                        "tollgate.redis.url", redis.url(),
                        "tollgate.local-denials", localDenials,
                        "tollgate.limits.api.algorithm", algorithm,
                        "tollgate.limits.api.capacity", "5",
                        "tollgate.limits.api.refill-period", "1h",
                        "tollgate.limits.bucket.capacity", "5",
                        "tollgate.limits.bucket.refill-tokens", "1",
                        "tollgate.limits.bucket.refill-period", "1h")))
                .build();
    }

    private EngineBuilder withListener(EngineBuilder builder) {
        return builder.listener(new DecisionListener() {
            @Override
            public void onDecision(LimitSpec limit, Decision decision, long nanos) {}

            @Override
            public void onHeldDenial(LimitSpec limit) {
                held.incrementAndGet();
            }
        });
    }

    @BeforeEach
    void resetStats() {
        redis.flushAll();
    }

    private static long evalCalls() {
        try (Jedis admin = redis.admin()) {
            String stats = admin.info("commandstats");
            long n = 0;
            for (String line : stats.split("\r?\n")) {
                if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
                    n += Long.parseLong(line.replaceAll("^[^:]+:calls=(\\d+),.*", "$1"));
                }
            }
            return n;
        }
    }

    private static void resetStatistics() {
        try (Jedis admin = redis.admin()) {
            admin.configResetStat();
        }
    }

    private int flood(Engine t, String limit, int calls) {
        int allowed = 0;
        for (int i = 0; i < calls; i++) {
            allowed += t.check(limit, "flooder").allowed() ? 1 : 0;
        }
        return allowed;
    }

    @Test
    void thousandCallsOnAnExhaustedBucketMakeAHandfulOfRedisCalls() {
        try (Engine t = tollgate("fixed-window", "1000")) {
            t.check("bucket", "warm-up");
            resetStatistics();
            assertEquals(5, flood(t, "bucket", 1000));
            long calls = evalCalls();
            System.out.println("held denials: 1000 calls on one key, " + calls + " reached Redis");
            // 5 allowed and 1 denied by Redis; the guard's warm-up in the background may add its own script call.
            assertTrue(calls <= 8, "5 allowed, 1 denied by Redis, the rest held here: " + calls);
            assertEquals(994, held.get());
        }
    }

    @Test
    void windowsAreHeldUntilTheirWindowEnds() {
        for (String algorithm : new String[] {"fixed-window", "sliding-window"}) {
            held.set(0);
            redis.flushAll();
            try (Engine t = tollgate(algorithm, "1000")) {
                t.check("api", "warm-up");
                resetStatistics();
                assertEquals(5, flood(t, "api", 500), algorithm);
                assertTrue(evalCalls() <= 8, algorithm + ": " + evalCalls());
                assertEquals(494, held.get(), algorithm);
            }
        }
    }

    @Test
    void withoutTheCacheEveryCallAsksRedis() {
        try (Engine t = tollgate("fixed-window", "0")) {
            t.check("bucket", "warm-up");
            resetStatistics();
            assertEquals(5, flood(t, "bucket", 200));
            // Every call asked Redis; the guard's background warm-up may add its probe script once (it
            // landed after resetStatistics in two loaded runs: 201).
            assertTrue(evalCalls() >= 200 && evalCalls() <= 202, "EVALSHA calls: " + evalCalls());
            assertEquals(0, held.get());
        }
    }

    /**
     * Exact, on a driven clock: the denial is sent at {@code t0} and its answer, Redis's retry-after R
     * (decided at Redis some time within the call), arrives at {@code t0 + call}. The hold counts from
     * {@code t0}, so right after the call it is R - call, and later R - call - later: never more than
     * what Redis itself would say then, whenever within the call it decided. A hold counted from the
     * answer (R at first) or one that does not count down would outlast Redis's own by up to a round
     * trip, or by all the time since, and fails here by exactly that.
     */
    @Test
    void aHeldDenialNeverOutlastsRedisOwn() {
        AtomicLong nanos = new AtomicLong(1_000_000_000_000L);
        Duration call = Duration.ofMillis(7);
        Duration later = Duration.ofMillis(1234);
        AtomicReference<Duration> duringNextCall = new AtomicReference<>();
        // Shown every call: the denial's store call lets `call` pass on the engine's clock while it is
        // in flight. The guard's warm-up (an empty call, answering null) does not take the step.
        Breaker stepping = new Breaker() {
            @Override
            public <T> T call(Callable<T> c) throws Exception {
                T answer = c.call();
                Duration step = answer == null ? null : duringNextCall.getAndSet(null);
                if (step != null) {
                    nanos.addAndGet(step.toNanos());
                }
                return answer;
            }

            @Override
            public boolean needsEverySuccess() {
                return true;
            }

            @Override
            public boolean isOpenFailure(Throwable failure) {
                return false;
            }
        };
        try (Engine t = withListener(Engine.builder(TestSettings.read(
                        "tollgate.redis.url", redis.url(),
                        "tollgate.local-denials", "1000",
                        "tollgate.limits.bucket.capacity", "5",
                        "tollgate.limits.bucket.refill-tokens", "1",
                        "tollgate.limits.bucket.refill-period", "1h")))
                .nanoTime(nanos::get)
                .breaker(() -> stepping)
                .build()) {
            assertEquals(5, flood(t, "bucket", 5));
            duringNextCall.set(call);
            Decision denied = t.check("bucket", "flooder");
            assertFalse(denied.allowed());
            assertEquals(null, duringNextCall.get(), "the denial's call to Redis took " + call);
            assertEquals(0, held.get(), "that denial came from Redis");
            Duration redisSaid = denied.retryAfter().truncatedTo(ChronoUnit.MICROS);
            assertTrue(redisSaid.compareTo(Duration.ofMinutes(59)) > 0, "a token per hour: " + redisSaid);

            Decision right = t.check("bucket", "flooder");
            assertEquals(1, held.get(), "held");
            assertEquals(redisSaid.minus(call), right.retryAfter(), "held from when the call was sent");
            nanos.addAndGet(later.toNanos());
            Decision afterwards = t.check("bucket", "flooder");
            assertEquals(2, held.get(), "still held");
            assertEquals(redisSaid.minus(call).minus(later), afterwards.retryAfter(), "counting down");
        }
    }

    @Test
    void aForgottenKeyAsksRedisAgain() {
        try (Engine t = tollgate("fixed-window", "1000")) {
            flood(t, "bucket", 7);
            assertEquals(1, held.get());
            t.limiter().forgetDenials(StoreKeys.DEFAULT.of("bucket", "flooder"));
            resetStatistics();
            assertFalse(t.check("bucket", "flooder").allowed());
            // Asked Redis once; the guard's background warm-up may add its probe script once.
            assertTrue(evalCalls() >= 1 && evalCalls() <= 2, "asked Redis: " + evalCalls());
            assertEquals(1, held.get());
        }
    }

    /** Spends {@code client}'s 5 tokens and has Redis deny the sixth call, which is then held. */
    private void exhaust(Engine t, String limit, String client) {
        int before = held.get();
        for (int i = 0; i < 5; i++) {
            assertTrue(t.check(limit, client).allowed(), client + " call " + i);
        }
        assertFalse(t.check(limit, client).allowed(), client + ": denied by Redis");
        assertEquals(before, held.get(), client + ": that denial came from Redis");
    }

    /** Whether {@code client}'s next call on {@code limit} is answered by a held denial (not by Redis). */
    private boolean answeredHere(Engine t, String limit, String client) {
        int before = held.get();
        assertFalse(t.check(limit, client).allowed(), client);
        return held.get() == before + 1;
    }

    @Test
    void atMostLocalDenialsAreHeldTheOldestEvictedFirst() {
        try (Engine t = tollgate("fixed-window", "2")) {
            exhaust(t, "bucket", "first");
            exhaust(t, "bucket", "second");
            exhaust(t, "bucket", "third");
            assertTrue(answeredHere(t, "bucket", "third"), "the newest is held");
            assertTrue(answeredHere(t, "bucket", "second"), "so is the one before");
            resetStatistics();
            assertFalse(answeredHere(t, "bucket", "first"), "the oldest was evicted: asked of Redis again");
            assertTrue(evalCalls() >= 1, "Redis was asked: " + evalCalls());
        }
    }

    @Test
    void aReloadForgetsTheHeldDenials(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=5\n");
        PropertySource source = PropertySource.of(Map.of(
                "tollgate.redis.url", redis.url(),
                "tollgate.config.file", file.toString(),
                "tollgate.local-denials", "1000",
                "tollgate.limits.api.algorithm", "fixed-window",
                "tollgate.limits.api.refill-period", "1h"));
        try (Engine t = withListener(Engine.builder(SettingsReader.read(source)).reloadFrom(source))
                .build()) {
            exhaust(t, "api", "flooder");
            assertTrue(answeredHere(t, "api", "flooder"), "held before the reload");
            Files.writeString(file, "tollgate.limits.api.capacity=10\n");
            t.reloader().look();
            t.reloader().look();
            assertEquals(10, t.limit("api").policy().capacity(), "reloaded");
            int before = held.get();
            assertTrue(t.check("api", "flooder").allowed(), "the window has room under the raised limit");
            assertEquals(before, held.get(), "the held denial was forgotten: Redis decided");
        }
    }

    @Test
    void anOverrideSetAfterADenialIsHeldDropsItOnEveryServer() throws Exception {
        try (Engine a = tollgate("fixed-window", "1000");
                Engine b = tollgate("fixed-window", "1000")) {
            AdministrationTest.awaitListening(a);
            AdministrationTest.awaitListening(b);
            exhaust(a, "api", "flooder");
            assertFalse(b.check("api", "flooder").allowed(), "denied by Redis, now held on b too");
            assertTrue(answeredHere(a, "api", "flooder"), "held on a");
            assertTrue(answeredHere(b, "api", "flooder"), "held on b");
            a.admin().override("api", "flooder", ClientOverride.window(100, Duration.ofHours(1)), Duration.ofHours(1));
            assertTrue(a.check("api", "flooder").allowed(), "the server that set it asked Redis");
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!((Administration) b.admin()).heardSince(0) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(((Administration) b.admin()).heardSince(0), "b heard the override");
            int before = held.get();
            assertTrue(b.check("api", "flooder").allowed(), "b dropped its held denial and asked Redis");
            assertEquals(before, held.get());
        }
    }
}
