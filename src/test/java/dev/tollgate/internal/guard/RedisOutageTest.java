package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.Counters;
import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.DistributedLock;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.RecordedCauses;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TcpLink;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
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
 * (no user request) brings decisions back, exact again. Counters and locks share the guard: a hung Redis
 * costs them the budget only until the breaker opens. Built as users build it, from settings.
 */
class RedisOutageTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    static final Duration BUDGET = Duration.ofMillis(250);
    /** The documented threshold (README: "3 in a row open it"), written here, not read from the code. */
    static final int THRESHOLD = 3;

    static final int OUTAGE_CHECKS = 20;

    /** A fault, how to cause it and how to end it. */
    enum Fault {
        // Refused at once: no check waits.
        SIGKILL_THEN_RESTART(false, false, false, false),
        SIGSTOP_THEN_SIGCONT(false, true, true, true),
        // A paused client's command is dropped when the client gives up and disconnects.
        CLIENT_PAUSE_WRITE(false, true, false, true),
        LINK_FROZEN(true, true, true, true),
        LINK_SLOWER_THAN_BUDGET(true, true, true, true);

        final boolean throughLink;
        final boolean stateSurvives;
        final boolean timedOutCheckApplied;
        /** Whether a check waits for the I/O timeout: then exactly the threshold's checks pay it. */
        final boolean hangs;

        Fault(boolean throughLink, boolean stateSurvives, boolean timedOutCheckApplied, boolean hangs) {
            this.throughLink = throughLink;
            this.stateSurvives = stateSurvives;
            this.timedOutCheckApplied = timedOutCheckApplied;
            this.hangs = hangs;
        }

        /** Why the checks before the breaker opens fail: a hung Redis times out, a dead one refuses. */
        DegradedCause outageCause() {
            return hangs ? DegradedCause.TIMEOUT : DegradedCause.REFUSED;
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
        String limit = "outage-" + UUID.randomUUID();
        String fresh = "after-" + UUID.randomUUID();
        String warm = "warm-" + UUID.randomUUID();
        Engine tollgate = track(tollgate(link != null ? link.url() : redis.url(), failOpen, limit, fresh, warm));
        BreakerState guard = tollgate.breakerState().orElseThrow();

        awaitDecidedByRedis(tollgate, warm);
        for (int i = 0; i < 5; i++) {
            assertFalse(tollgate.check(limit, "k").degraded(), "a warm client on a healthy Redis");
        }
        long[] before = counts.snapshot();
        long outagesBefore = counts.causes.count(fault.outageCause());
        long refusedBefore = counts.causes.count(DegradedCause.BREAKER_OPEN);

        fault.inject(link);
        try {
            for (int i = 0; i < OUTAGE_CHECKS; i++) {
                long start = System.nanoTime();
                Decision d = tollgate.check(limit, "k");
                long took = System.nanoTime() - start;
                assertTrue(took < BUDGET.multipliedBy(2).toNanos(), "check " + i + " took " + took / 1_000_000 + " ms");
                assertTrue(d.degraded(), "check " + i);
                assertEquals(failOpen, d.allowed(), "check " + i);
            }
            assertTrue(guard.isOpen(), "the breaker opened");
            // Counted by cause, not timed: exactly the threshold's checks failed as outages (each waited out the
            // I/O timeout on a hung Redis, or was refused at once by a dead one), then the breaker answered
            // every other check without asking Redis.
            assertEquals(
                    THRESHOLD,
                    counts.causes.count(fault.outageCause()) - outagesBefore,
                    fault.outageCause() + ": the threshold's checks, then the breaker; " + counts.causes);
            assertEquals(
                    OUTAGE_CHECKS - THRESHOLD,
                    counts.causes.count(DegradedCause.BREAKER_OPEN) - refusedBefore,
                    "answered by the open breaker; " + counts.causes);
            long[] during = counts.snapshot();
            assertEquals(OUTAGE_CHECKS, during[Counts.index(true, failOpen)] - before[Counts.index(true, failOpen)]);
            assertEquals(0, during[Counts.index(true, !failOpen)] - before[Counts.index(true, !failOpen)]);
            assertEquals(0, during[Counts.index(false, true)] - before[Counts.index(false, true)], "normal +0");
            assertEquals(0, during[Counts.index(false, false)] - before[Counts.index(false, false)], "normal +0");
        } finally {
            fault.heal(link);
        }

        awaitClosed(guard);
        // Only the probe closes the breaker (no check ran since the heal). Not "more probes than at the heal":
        // a probe that waited on a frozen Redis gets its answer at the thaw, and is the one that closes it.
        assertTrue(guard.probesSent() >= 1, "a background probe, not a request, found Redis back");
        if (fault.stateSurvives) {
            // Each check that reached Redis spent a token, even if it timed out first: the bucket says
            // how many got through, whatever the breaker's probes did. Only the threshold's checks, counted
            // exactly above, were sent; which of them reached Redis depends on the pool (a check on a new
            // connection waits for its handshake and never sends its script: 0 to 2 are seen here).
            long reached = 1_000_000 - 5 - tokensLeft(limit);
            if (fault.timedOutCheckApplied) {
                assertTrue(reached >= 1, "a check that timed out was still applied once Redis could run it");
            }
            assertTrue(reached <= THRESHOLD, "after the breaker opened no check reached Redis; reached: " + reached);
        }

        for (int left = 2; left >= 0; left--) {
            Decision d = tollgate.check(fresh, "k");
            assertFalse(d.degraded());
            assertEquals(left, d.remaining());
        }
        assertFalse(tollgate.check(fresh, "k").allowed());
        if (fault == Fault.SIGKILL_THEN_RESTART) {
            assertEquals(0, commandCalls("eval"), "the probe reloaded the scripts: no request met NOSCRIPT");
        }
    }

    /**
     * Exactly the threshold's checks wait for a hung Redis, then none: with a 2 s budget, a check that
     * waited took over 1 s and one answered by the open breaker takes microseconds, so no stall of a loaded
     * machine blurs the count.
     */
    @Test
    void exactlyTheThresholdsChecksWaitForAHungRedis() throws Exception {
        String limit = "hung-" + UUID.randomUUID();
        String warm = "warm-" + UUID.randomUUID();
        Engine tollgate = track(Engine.builder(TestSettings.read(concat(
                        redisProperties(redis.url(), true, Duration.ofSeconds(2)),
                        concat(TestSettings.quota(limit, 1_000_000), TestSettings.quota(warm, 1_000_000)))))
                .listener(counts)
                // No live-servers beats: the count is of checks alone (a beat never counts toward the breaker,
                // DegradedCausesIT and LiveServersTest see that with beats running).
                .heartbeat(new DrivenScheduler(new AtomicLong()))
                .build());
        awaitDecidedByRedis(tollgate, warm);
        assertFalse(tollgate.check(limit, "k").degraded());
        int waited = 0;
        redis.pause();
        try {
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                assertTrue(tollgate.check(limit, "k").degraded(), "check " + i);
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(millis < 4_000, "check " + i + " took " + millis + " ms: within 2x the budget");
                waited += millis >= 1_000 ? 1 : 0;
            }
        } finally {
            redis.resume();
        }
        assertEquals(THRESHOLD, waited, "checks that waited for the hung Redis: the threshold's, then none");
        awaitClosed(tollgate.breakerState().orElseThrow());
    }

    @Test
    void countersAndLocksOnAHungRedisPayTheBudgetAtMostThresholdTimes() throws Exception {
        String warm = "warm-" + UUID.randomUUID();
        Engine tollgate = track(tollgate(redis.url(), true, warm));
        awaitDecidedByRedis(tollgate, warm);
        Counters counters = tollgate.counters();
        DistributedLock locks = tollgate.locks();
        assertEquals(1, counters.increment("hung-counter", 1, Duration.ofMinutes(1)));
        assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire("hung-warm-up", Duration.ofSeconds(30)));

        List<DegradedCause> causes = new ArrayList<>();
        redis.pause();
        try {
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                StoreUnavailableException e = assertThrows(
                        StoreUnavailableException.class,
                        () -> counters.increment("hung-counter", 1, Duration.ofMinutes(1)),
                        "a counter call Redis cannot answer throws");
                withinTwiceTheBudget(start, "counter call " + i);
                causes.add(e.degradedCause());
                start = System.nanoTime();
                Acquisition a = locks.tryAcquire("hung-lock-" + i, Duration.ofMinutes(1));
                Acquisition.Unavailable u =
                        assertInstanceOf(Acquisition.Unavailable.class, a, "lock call " + i + ": fail closed");
                withinTwiceTheBudget(start, "lock call " + i);
                causes.add(assertInstanceOf(StoreUnavailableException.class, u.cause())
                        .degradedCause());
            }
            assertTrue(tollgate.breakerState().orElseThrow().isOpen(), "the counters' and locks' failures opened it");
            // By cause, not timed: the first three calls (counter, lock, counter) waited out the I/O timeout and
            // opened the breaker, which answered the other 17 at once.
            List<DegradedCause> expected = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                expected.add(i < THRESHOLD ? DegradedCause.TIMEOUT : DegradedCause.BREAKER_OPEN);
            }
            assertEquals(expected, causes, "the threshold's calls timed out, then the breaker answered");
        } finally {
            redis.resume();
        }
        // A call that reached the frozen Redis waited out the budget, and Redis ran it once thawed: the
        // counter and the lock keys say how many did; the breaker kept every other call from Redis.
        awaitClosed(tollgate.breakerState().orElseThrow());
        long reached;
        try (Jedis j = redis.admin()) {
            reached = Long.parseLong(j.get("tollgate:counter:{hung-counter}")) - 1;
            for (int i = 0; i < 10; i++) {
                reached += j.exists("tollgate:lock:{hung-lock-" + i + "}") ? 1 : 0;
            }
        }
        assertTrue(reached >= 1, "the first call reached the frozen Redis");
        assertTrue(
                reached <= THRESHOLD, reached + " of 20 counter and lock calls waited for Redis; at most " + THRESHOLD);
        assertTrue(counters.increment("hung-counter", 1, Duration.ofMinutes(1)) >= 2, "counting again after");
    }

    /** Asserts the call that started at {@code start} took less than 2x the budget. */
    private static void withinTwiceTheBudget(long start, String what) {
        long took = System.nanoTime() - start;
        assertTrue(took < BUDGET.multipliedBy(2).toNanos(), what + " took " + took / 1_000_000 + " ms");
    }

    @Test
    void resetLinkCostsNoDecision() throws Exception {
        TcpLink link = track(new TcpLink(redis.port()));
        String limit = "reset-" + UUID.randomUUID();
        // The budget is not what this test is about: a generous one, so a loaded machine cannot turn the
        // reconnect into a degraded decision.
        Engine tollgate = track(Engine.builder(TestSettings.read(concat(
                        redisProperties(link.url(), true, Duration.ofSeconds(2)), TestSettings.quota(limit, 10))))
                .listener(counts)
                .build());
        assertEquals(9, tollgate.check(limit, "k").remaining());
        link.reset();
        for (int left = 8; left >= 0; left--) {
            Decision d = tollgate.check(limit, "k");
            assertFalse(d.degraded(), "a reset connection is replaced, not degraded");
            assertEquals(left, d.remaining());
        }
        assertFalse(tollgate.breakerState().orElseThrow().isOpen());
    }

    /** Tollgate as a user builds it: a quota of 3 under the second limit named, of 1,000,000 under the others. */
    private Engine tollgate(String url, boolean failOpen, String... limits) {
        List<String> properties = new ArrayList<>(List.of(redisProperties(url, failOpen)));
        for (int i = 0; i < limits.length; i++) {
            properties.addAll(List.of(TestSettings.quota(limits[i], i == 1 ? 3 : 1_000_000)));
        }
        return Engine.builder(TestSettings.read(properties.toArray(String[]::new)))
                .listener(counts)
                .build();
    }

    private static String[] redisProperties(String url, boolean failOpen) {
        return redisProperties(url, failOpen, BUDGET);
    }

    private static String[] redisProperties(String url, boolean failOpen, Duration budget) {
        return new String[] {
            "tollgate.redis.url",
            url,
            "tollgate.redis.timeout",
            budget.toMillis() + "ms",
            "tollgate.redis.pool-size",
            "8",
            "tollgate.fail-open",
            Boolean.toString(failOpen)
        };
    }

    private static String[] concat(String[] a, String[] b) {
        List<String> all = new ArrayList<>(List.of(a));
        all.addAll(List.of(b));
        return all.toArray(String[]::new);
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

    /**
     * Waits until checks of {@code warm} are decided by Redis 5 times in a row (client built, scripts
     * loaded, breaker closed): a precondition, on a limit of its own, so a warm-up check that a loaded
     * machine answered degraded (and Redis still ran) can neither skew the counts nor the breaker.
     */
    private static void awaitDecidedByRedis(Engine tollgate, String warm) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int inARow = 0;
        while (inARow < 5 && System.nanoTime() < deadline) {
            boolean byRedis = !tollgate.check(warm, "k").degraded()
                    && !tollgate.breakerState().orElseThrow().isOpen();
            inARow = byRedis ? inARow + 1 : 0;
            if (!byRedis) {
                Thread.sleep(100);
            }
        }
        assertEquals(5, inARow, "Redis decided 5 checks in a row within 20 s");
    }

    private static void awaitClosed(BreakerState guard) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (guard.isOpen() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertFalse(guard.isOpen(), "recovered within 10 s of Redis answering (0.5-0.6 s when the machine is quiet)");
    }

    private static long tokensLeft(String limit) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, StoreKeys.DEFAULT.of(limit, "k")).wholeTokens();
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
        final RecordedCauses causes = new RecordedCauses();

        @Override
        public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
            causes.onDegraded(limit, decision, cause, nanos);
            onDecision(limit, decision, nanos);
        }

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
