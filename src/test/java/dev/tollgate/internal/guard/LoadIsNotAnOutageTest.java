package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.OnTheCallersConnection;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisFailures;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.internal.redis.RedisUrl;
import dev.tollgate.testing.RecordedCauses;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TcpLink;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * This server's own slowness is not a Redis outage (issue 22, finding 3). A call that ran out of its
 * budget while Redis answered another call sent after it is {@link DegradedCause#LOAD} and never
 * reaches the breaker, even one that opens on a single failure; a call that timed out while Redis
 * answered nobody still counts, as before. A flood that keeps the only connection busy for the budget
 * (saturated) is decided by the limit's local share, not by failing open: it admits at most the limit
 * plus that share. Counted, not timed.
 */
class LoadIsNotAnOutageTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final Duration BUDGET = Duration.ofSeconds(1);
    private static final LuaScript PROBE = LuaScript.named("probe");

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A caller on {@code link}'s lane whose breaker opens on the first failure it is shown. */
    private ExecutorCaller caller(RedisLink link) {
        Breaker breaker = new ConsecutiveFailuresBreaker(1, Duration.ofMinutes(1), System::nanoTime);
        ExecutorCaller caller =
                new ExecutorCaller(GuardSettings.defaults(BUDGET, 4), breaker, link.lane(), RedisFailures::classify);
        open.add(caller);
        link.eval(PROBE, List.of("tollgate:{probe}"), List.of()); // builds the client, outside the budget
        return caller;
    }

    private RedisLink link() {
        RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), BUDGET, 4));
        open.add(link);
        return link;
    }

    /**
     * A call Redis does not answer within the budget while it answers every other ({@code WAIT} for a
     * replica there is none of, 5 s): what a reader sees whose reply is not there when it gives up.
     * Signals {@code sent} first.
     */
    private static Object unanswered(RedisLink link, CountDownLatch sent) {
        sent.countDown();
        return OnTheCallersConnection.send(link, Protocol.Command.WAIT, "1", "5000");
    }

    @Test
    void aCallThatTimedOutWhileRedisAnsweredAnotherIsLoadAndNeverOpensTheBreaker() throws Exception {
        RedisLink link = link();
        ExecutorCaller caller = caller(link);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        open.add(threads::shutdownNow);
        CountDownLatch sent = new CountDownLatch(1);
        Future<Exception> late = threads.submit(() -> {
            try {
                caller.call(() -> unanswered(link, sent));
                return null;
            } catch (Exception e) {
                return e;
            }
        });
        assertTrue(sent.await(10, TimeUnit.SECONDS));
        // Redis answers another call while the first one waits: it is not slow, let alone gone.
        caller.call(() -> link.eval(PROBE, List.of("tollgate:{probe}"), List.of()));
        Exception failure = late.get(10, TimeUnit.SECONDS);
        assertEquals(DegradedCause.LOAD, caller.causeOf(failure), String.valueOf(failure));
        assertDoesNotThrow(
                () -> caller.call(() -> link.eval(PROBE, List.of("tollgate:{probe}"), List.of())),
                "a breaker that opens on one failure is still closed");
    }

    @Test
    void aCallThatTimedOutWhileRedisAnsweredNobodyStillOpensTheBreaker() throws Exception {
        RedisLink link = link();
        ExecutorCaller caller = caller(link);
        Exception failure =
                assertThrows(Exception.class, () -> caller.call(() -> unanswered(link, new CountDownLatch(1))));
        assertEquals(DegradedCause.TIMEOUT, caller.causeOf(failure), String.valueOf(failure));
        Exception next = assertThrows(
                Exception.class, () -> caller.call(() -> link.eval(PROBE, List.of("tollgate:{probe}"), List.of())));
        assertEquals(DegradedCause.BREAKER_OPEN, caller.causeOf(next), "a timeout with Redis silent is an outage");
    }

    @Test
    void aWorkerThatFoundNoConnectionOrWhoseCallerGaveUpWaitingForOneIsSaturatedNotAnOutage() {
        // A worker waits for a pooled connection; its caller gives up at the budget and interrupts it.
        assertEquals(
                DegradedCause.SATURATED,
                RedisFailures.classify(
                        new JedisException("Could not get a resource from the pool", new InterruptedException())));
        assertEquals(
                DegradedCause.SATURATED,
                RedisFailures.classify(new JedisException(
                        "Could not get a resource from the pool",
                        new NoSuchElementException("Timeout waiting for idle object"))));
        assertEquals(
                DegradedCause.REFUSED,
                RedisFailures.classify(new JedisException(
                        "Could not get a resource from the pool", new JedisConnectionException("refused"))),
                "a connection that could not be made is still an outage");
    }

    @Test
    void aFloodThatSaturatesTheGuardAdmitsAtMostTheLimitAndTheLocalShare() throws Exception {
        String limit = "flood-" + UUID.randomUUID();
        RecordedCauses causes = new RecordedCauses();
        AtomicLong local = new AtomicLong();
        DecisionListener locals = new DecisionListener() {
            @Override
            public void onDecision(LimitSpec l, Decision d, long nanos) {}

            @Override
            public void onLocalDecision(LimitSpec l, Decision d) {
                local.incrementAndGet();
            }
        };
        try (TcpLink link = new TcpLink(redis.port());
                Engine tollgate = Engine.builder(TestSettings.read(
                                "tollgate.redis.url",
                                link.url(),
                                "tollgate.redis.timeout",
                                "400ms",
                                "tollgate.redis.pool-size",
                                "1",
                                // Four servers share it: this one's share is 1 of the 4.
                                "tollgate.local-fallback-servers",
                                "4",
                                "tollgate.limits." + limit + ".capacity",
                                "4",
                                "tollgate.limits." + limit + ".refill-tokens",
                                "0",
                                "tollgate.limits." + limit + ".persist",
                                "true"))
                        .listener(DecisionListener.both(causes, locals))
                        .build()) {
            awaitDecidedByRedis(tollgate, limit);
            link.slow(150);
            List<Decision> decisions = concurrently(24, () -> tollgate.check(limit, "k"));
            long admitted = decisions.stream().filter(Decision::allowed).count();
            long degraded = decisions.stream().filter(Decision::degraded).count();
            long load = causes.count(DegradedCause.SATURATED) + causes.count(DegradedCause.LOAD);
            assertTrue(load >= 6, "24 checks of 150 ms on one connection in 400 ms: most saturated; " + causes);
            assertTrue(admitted <= 4 + 1, "the limit (4) and this server's share (1): " + admitted + "; " + causes);
            assertEquals(degraded, local.get(), "every degraded decision by the local share, none failed open");
            assertEquals(0, causes.count(DegradedCause.BREAKER_OPEN), causes.toString());
            assertFalse(tollgate.breakerState().orElseThrow().isOpen(), "a full pool is not an outage");
        }
    }

    /** Until a check (on a client key of its own) is decided by Redis: a loaded machine is slow to connect. */
    private static void awaitDecidedByRedis(Engine tollgate, String limit) throws InterruptedException {
        for (int i = 0; i < 50 && tollgate.check(limit, "warm-up").degraded(); i++) {
            Thread.sleep(100);
        }
        assertFalse(tollgate.breakerState().orElseThrow().isOpen(), "warm");
    }

    private static <T> List<T> concurrently(int n, java.util.concurrent.Callable<T> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return call.call();
                }));
            }
            start.countDown();
            List<T> out = new ArrayList<>();
            for (Future<T> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }
}
