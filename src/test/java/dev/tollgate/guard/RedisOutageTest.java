package dev.tollgate.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.engine.RedisGuards;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.DecisionListener;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.ratelimit.StoreKeys;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TcpLink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.SafeEncoder;

/**
 * Real faults against a real Redis: every check during an outage returns the degraded decision within
 * the budget, the counters are exact, an open breaker sends nothing to Redis, and a background probe
 * (no user request) brings decisions back, exact again.
 */
class RedisOutageTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static final Duration BUDGET = Duration.ofMillis(250);
    static final int THRESHOLD = GuardSettings.defaults(BUDGET, 8).failureThreshold();
    static final int OUTAGE_CHECKS = 20;

    /** A fault, how to cause it and how to end it. */
    enum Fault {
        SIGKILL_THEN_RESTART(false, false, false),
        SIGSTOP_THEN_SIGCONT(false, true, true),
        // A paused client's command is dropped when the client gives up and disconnects.
        CLIENT_PAUSE_WRITE(false, true, false),
        LINK_FROZEN(true, true, true),
        LINK_SLOWER_THAN_BUDGET(true, true, true);

        final boolean throughLink;
        final boolean stateSurvives;
        final boolean timedOutCheckApplied;

        Fault(boolean throughLink, boolean stateSurvives, boolean timedOutCheckApplied) {
            this.throughLink = throughLink;
            this.stateSurvives = stateSurvives;
            this.timedOutCheckApplied = timedOutCheckApplied;
        }

        void inject(TcpLink link) throws Exception {
            switch (this) {
                case SIGKILL_THEN_RESTART -> redis.kill();
                case SIGSTOP_THEN_SIGCONT -> redis.pause();
                case CLIENT_PAUSE_WRITE -> admin("CLIENT", "PAUSE", "60000", "WRITE");
                case LINK_FROZEN -> link.freeze();
                case LINK_SLOWER_THAN_BUDGET -> link.slow(BUDGET.toMillis() + 150);
            }
        }

        void heal(TcpLink link) throws Exception {
            switch (this) {
                case SIGKILL_THEN_RESTART -> redis.restart();
                case SIGSTOP_THEN_SIGCONT -> redis.resume();
                case CLIENT_PAUSE_WRITE -> admin("CLIENT", "UNPAUSE");
                case LINK_FROZEN -> link.unfreeze();
                case LINK_SLOWER_THAN_BUDGET -> link.fast();
            }
        }
    }

    private final List<AutoCloseable> open = new ArrayList<>();
    private final Counts counts = new Counts();

    static Stream<Arguments> faults() {
        return Stream.of(Fault.values()).flatMap(f -> Stream.of(Arguments.of(f, true), Arguments.of(f, false)));
    }

    @ParameterizedTest(name = "{0}, fail-open={1}")
    @MethodSource("faults")
    void everyCheckIsDegradedWithinBudgetAndRecoveryNeedsNoUserRequest(Fault fault, boolean failOpen) throws Exception {
        TcpLink link = fault.throughLink ? track(new TcpLink(redis.port())) : null;
        RedisLink redisLink =
                track(RedisClients.create(RedisSettings.of(link != null ? link.url() : redis.url(), BUDGET, 8)));
        RedisGuard guard = track(RedisGuards.forLink(
                redisLink, ExecutorCaller.standalone(GuardSettings.defaults(BUDGET, 8)), Duration.ofMillis(100)));
        RateLimiter limiter = new RateLimiter(
                RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, redisLink), guard, counts, System::nanoTime);
        LimitSpec limit = spec(LimitPolicy.quota("outage-" + UUID.randomUUID(), 1_000_000), failOpen);

        for (int i = 0; i < 5; i++) {
            assertFalse(limiter.check(limit, "k").degraded());
        }
        long[] before = counts.snapshot();

        fault.inject(link);
        try {
            for (int i = 0; i < OUTAGE_CHECKS; i++) {
                long start = System.nanoTime();
                Decision d = limiter.check(limit, "k");
                long took = System.nanoTime() - start;
                assertTrue(took < BUDGET.multipliedBy(2).toNanos(), "check " + i + " took " + took / 1_000_000 + " ms");
                assertTrue(d.degraded(), "check " + i);
                assertEquals(failOpen, d.allowed(), "check " + i);
            }
            assertTrue(guard.isOpen(), "the breaker opened");
            long[] during = counts.snapshot();
            assertEquals(OUTAGE_CHECKS, during[Counts.index(true, failOpen)] - before[Counts.index(true, failOpen)]);
            assertEquals(0, during[Counts.index(true, !failOpen)] - before[Counts.index(true, !failOpen)]);
            assertEquals(0, during[Counts.index(false, true)] - before[Counts.index(false, true)], "normal +0");
            assertEquals(0, during[Counts.index(false, false)] - before[Counts.index(false, false)], "normal +0");
        } finally {
            fault.heal(link);
        }

        long probes = guard.probesSent();
        awaitClosed(guard);
        assertTrue(guard.probesSent() > probes || probes > 0, "a background probe, not a request, found Redis back");
        if (fault.stateSurvives) {
            // Each check that reached Redis spent a token, even if it timed out first: the bucket says
            // how many got through, whatever the breaker's probes did.
            long reached = 1_000_000 - 5 - tokensLeft(limit);
            if (fault.timedOutCheckApplied) {
                assertTrue(reached >= 1, "a check that timed out was still applied once Redis could run it");
            }
            assertTrue(reached <= THRESHOLD, "after the breaker opened no check reached Redis; reached: " + reached);
        }

        LimitSpec fresh = spec(LimitPolicy.quota("after-" + UUID.randomUUID(), 3), failOpen);
        for (int left = 2; left >= 0; left--) {
            Decision d = limiter.check(fresh, "k");
            assertFalse(d.degraded());
            assertEquals(left, d.remaining());
        }
        assertFalse(limiter.check(fresh, "k").allowed());
        if (fault == Fault.SIGKILL_THEN_RESTART) {
            assertEquals(0, commandCalls("eval"), "the probe reloaded the scripts: no request met NOSCRIPT");
        }
    }

    @Test
    void resetLinkCostsNoDecision() throws Exception {
        TcpLink link = track(new TcpLink(redis.port()));
        RedisLink redisLink = track(RedisClients.create(RedisSettings.of(link.url(), BUDGET, 8)));
        RedisGuard guard = track(RedisGuards.forLink(
                redisLink, ExecutorCaller.standalone(GuardSettings.defaults(BUDGET, 8)), Duration.ofMillis(100)));
        RateLimiter limiter = new RateLimiter(
                RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, redisLink), guard, counts, System::nanoTime);
        LimitSpec limit = spec(LimitPolicy.quota("reset-" + UUID.randomUUID(), 10), true);
        assertEquals(9, limiter.check(limit, "k").remaining());
        link.reset();
        for (int left = 8; left >= 0; left--) {
            Decision d = limiter.check(limit, "k");
            assertFalse(d.degraded(), "a reset connection is replaced, not degraded");
            assertEquals(left, d.remaining());
        }
        assertFalse(guard.isOpen());
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
        redis.resume();
    }

    private <T extends AutoCloseable> T track(T resource) {
        open.add(resource);
        return resource;
    }

    private static LimitSpec spec(LimitPolicy policy, boolean failOpen) {
        return new LimitSpec(policy, new KeySpec.Global(), failOpen);
    }

    private static void awaitClosed(RedisGuard guard) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (guard.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(guard.isOpen(), "recovered within 5 s of Redis answering");
    }

    private static long tokensLeft(LimitSpec limit) {
        try (Jedis j = redis.admin()) {
            return (long) Double.parseDouble(j.hget(StoreKeys.of(limit.name(), "k"), "tokens"));
        }
    }

    private static long commandCalls(String command) {
        try (Jedis j = redis.admin()) {
            for (String line : j.info("commandstats").split("\r?\n")) {
                if (line.startsWith("cmdstat_" + command + ":")) {
                    return Long.parseLong(line.replaceAll(".*calls=(\\d+).*", "$1"));
                }
            }
            return 0;
        }
    }

    private static void admin(String... args) {
        try (Jedis j = redis.admin()) {
            j.sendCommand(() -> SafeEncoder.encode(args[0]), Arrays.copyOfRange(args, 1, args.length));
        }
    }

    /** Exact decision counts by (degraded, allowed). */
    static final class Counts implements DecisionListener {
        private final AtomicLongArray n = new AtomicLongArray(4);

        static int index(boolean degraded, boolean allowed) {
            return (degraded ? 2 : 0) + (allowed ? 1 : 0);
        }

        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {
            n.incrementAndGet(index(decision.degraded(), decision.allowed()));
        }

        long[] snapshot() {
            return new long[] {n.get(0), n.get(1), n.get(2), n.get(3)};
        }
    }
}
