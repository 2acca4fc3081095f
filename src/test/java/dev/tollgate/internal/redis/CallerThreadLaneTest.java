package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.core.StoreSaturatedException;
import dev.tollgate.internal.guard.Breaker;
import dev.tollgate.internal.guard.BreakerOpenException;
import dev.tollgate.internal.guard.ExecutorCaller;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.testing.Await;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.util.Pool;

/**
 * The caller's-thread lane on a real Redis: a healthy call runs on the caller's thread and is not
 * shown to the breaker; a hung Redis is still given up at the budget there; the breaker sees every
 * failure and the first call after one, so it opens on the same calls as when it sees them all; a
 * pool that stays full is not counted as a failure.
 */
class CallerThreadLaneTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    static final Duration BUDGET = Duration.ofMillis(250);
    static final LuaScript PROBE = LuaScript.named("probe");

    private final List<AutoCloseable> open = new ArrayList<>();

    /** Tollgate's own breaker, counting what it is shown. */
    static class CountingBreaker implements Breaker {
        final Breaker real = Breaker.of(GuardSettings.defaults());
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public <T> T call(Callable<T> call) throws Exception {
            calls.incrementAndGet();
            return real.call(call);
        }

        @Override
        public boolean isOpenFailure(Throwable failure) {
            return real.isOpenFailure(failure);
        }
    }

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    private RedisLink link(int poolSize) {
        return link(poolSize, BUDGET);
    }

    private RedisLink link(int poolSize, Duration budget) {
        RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), budget, poolSize));
        open.add(link);
        return link;
    }

    private ExecutorCaller caller(RedisLink link, Breaker breaker) throws Exception {
        return caller(link, breaker, BUDGET);
    }

    private ExecutorCaller caller(RedisLink link, Breaker breaker, Duration budget) throws Exception {
        ExecutorCaller caller =
                new ExecutorCaller(GuardSettings.defaults(budget, 4), breaker, link.lane(), RedisFailures::classify);
        open.add(caller);
        // Builds the client and leaves idle connections, outside the budget (a loaded machine is slow).
        probe(link);
        List<Connection> made = new ArrayList<>();
        while (made.size() < Math.min(4, link.builtPool().getMaxTotal())) {
            made.add(link.builtPool().getResource());
        }
        made.forEach(Connection::close);
        return caller;
    }

    private static Object probe(RedisLink link) {
        return link.eval(PROBE, List.of("tollgate:{probe}"), List.of());
    }

    @Test
    void aHealthyCallRunsOnTheCallersThreadAndTheBreakerIsNotAsked() throws Exception {
        RedisLink link = link(4);
        CountingBreaker breaker = new CountingBreaker();
        ExecutorCaller caller = caller(link, breaker);
        int before = breaker.calls.get();
        for (int i = 0; i < 100; i++) {
            assertSame(Thread.currentThread(), caller.call(() -> {
                probe(link);
                return Thread.currentThread();
            }));
        }
        assertEquals(before, breaker.calls.get(), "successes on the caller's thread are not shown to the breaker");
    }

    @Test
    void aBreakerThatNeedsEverySuccessIsShownEveryCallStillOnTheCallersThread() throws Exception {
        RedisLink link = link(4);
        CountingBreaker breaker = new CountingBreaker() {
            @Override
            public boolean needsEverySuccess() {
                return true; // e.g. Fault Tolerance configured with failureRatio=0.5
            }
        };
        ExecutorCaller caller = caller(link, breaker);
        int before = breaker.calls.get();
        for (int i = 0; i < 20; i++) {
            assertSame(Thread.currentThread(), caller.call(() -> {
                probe(link);
                return Thread.currentThread();
            }));
        }
        assertEquals(before + 20, breaker.calls.get());
    }

    @Test
    void aHungRedisIsGivenUpAtTheBudgetOnTheCallersThreadAndOpensTheBreakerAtExactlyTheThreshold() throws Exception {
        RedisLink link = link(4);
        CountingBreaker breaker = new CountingBreaker();
        ExecutorCaller caller = caller(link, breaker);
        Thread me = Thread.currentThread();
        List<Thread> ranOn = new ArrayList<>();
        redis.pause();
        try {
            int refused = 0;
            int failed = 0;
            for (int i = 0; i < 6; i++) {
                long start = System.nanoTime();
                Exception e = assertThrows(
                        Exception.class,
                        () -> caller.call(() -> {
                            ranOn.add(Thread.currentThread());
                            return probe(link);
                        }));
                long tookMillis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(tookMillis < BUDGET.toMillis() * 2, "call " + i + " took " + tookMillis + " ms");
                if (e instanceof BreakerOpenException) {
                    refused++;
                } else {
                    failed++; // Redis's timeout, or (on a worker) the budget's
                }
            }
            assertEquals(GuardSettings.DEFAULT_FAILURE_THRESHOLD, failed, "three failures in a row open it");
            assertEquals(3, refused, "then it refuses without asking Redis");
            assertEquals(List.of(me, me, me), ranOn, "only the failed calls ran, each on the caller's thread");
        } finally {
            redis.resume();
        }
    }

    @Test
    void theBreakerOpensOnTheSameCallsAsWhenItSeesThemAll() throws Exception {
        RedisLink link = link(4);
        CountingBreaker breaker = new CountingBreaker();
        ExecutorCaller caller = caller(link, breaker);
        Callable<Object> fails = () -> {
            throw new JedisConnectionException("a failure"); // an outage: a data error would not count
        };
        Callable<Object> succeeds = () -> probe(link);
        // failure, success, failure, failure: never three in a row, so it stays closed.
        for (Callable<Object> c : List.of(fails, succeeds, succeeds, succeeds, fails, succeeds, fails, fails)) {
            try {
                caller.call(c);
            } catch (JedisConnectionException expected) {
                // counted
            }
        }
        caller.call(succeeds);
        int shown = breaker.calls.get();
        for (int i = 0; i < 3; i++) {
            assertThrows(JedisConnectionException.class, () -> caller.call(fails));
        }
        assertThrows(BreakerOpenException.class, () -> caller.call(succeeds), "the third failure in a row opened it");
        assertEquals(shown + 4, breaker.calls.get(), "every failure, and each call after one, was shown to it");
    }

    /**
     * A connection that breaks on the caller's thread (killed while its command waits) is retried once on
     * a fresh one, within what is left of the budget: with every other connection taken the retry waits
     * for one only until the budget ends (it used to wait a whole budget of its own, ~2x in all).
     *
     * <p>The kill comes once Redis holds the command, 600 ms into the 1 s budget: the call ends
     * at the budget (1 s), a retry with a budget of its own at 1.6 s. The bound is halfway, 1.3 s: 300
     * ms for a loaded machine either way.
     */
    @Test
    void aBrokenConnectionsRetryOnTheCallersThreadEndsWithTheBudget() throws Exception {
        Duration budget = Duration.ofSeconds(1);
        Duration killAt = Duration.ofMillis(600);
        RedisLink link = link(1, budget);
        ExecutorCaller caller = caller(link, new CountingBreaker(), budget);
        Pool<Connection> pool = link.builtPool();
        List<Connection> held = new ArrayList<>(); // every connection but the call's
        while (held.size() < pool.getMaxTotal() - 1) {
            held.add(pool.getResource());
        }
        if (pool.getNumIdle() == 0) {
            pool.getResource().close(); // one idle connection for the call
        }
        CompletableFuture<Void> killed = null;
        try (Jedis admin = redis.admin()) {
            admin.clientPause(10_000, ClientPauseMode.WRITE);
            long start = System.nanoTime();
            killed = CompletableFuture.runAsync(() -> killOnceHeld(start + killAt.toNanos()));
            Exception failed = assertThrows(Exception.class, () -> caller.call(() -> probe(link)));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            killed.get(30, TimeUnit.SECONDS);
            assertTrue(
                    tookMillis < budget.plus(killAt.dividedBy(2)).toMillis(), "took " + tookMillis + " ms: " + failed);
            assertFalse(RedisLink.timedOut(failed), "the connection broke, it did not time out: " + failed);
        } finally {
            if (killed != null) {
                killed.handle((v, e) -> null).get(30, TimeUnit.SECONDS);
            }
            try (Jedis admin = redis.admin()) {
                admin.clientUnpause();
            }
            held.forEach(Connection::close);
        }
        caller.call(() -> probe(link)); // answered again, on a fresh connection
    }

    /** Once Redis holds the call's command (and not before {@code atNanos}), kills every normal client but its own. */
    private static void killOnceHeld(long atNanos) {
        try (Jedis admin = redis.admin()) {
            Await.until("the call's command held by the pause", () -> Await.blockedClients(admin) == 1);
            long early = atNanos - System.nanoTime();
            if (early > 0) {
                TimeUnit.NANOSECONDS.sleep(early); // a point in the budget, not a wait for state
            }
            admin.sendCommand(Protocol.Command.CLIENT, "KILL", "TYPE", "normal", "SKIPME", "yes");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
        }
    }

    @Test
    void aPoolThatStaysFullIsNotAFailure() throws Exception {
        RedisLink link = link(1); // two connections: one for calls, one for lock notices
        CountingBreaker breaker = new CountingBreaker();
        ExecutorCaller caller = caller(link, breaker);
        Pool<Connection> pool = link.builtPool();
        List<Connection> held = new ArrayList<>();
        while (pool.getNumActive() < pool.getMaxTotal()) {
            held.add(pool.getResource());
        }
        int shown = breaker.calls.get();
        try {
            for (int i = 0; i < 5; i++) {
                long start = System.nanoTime();
                assertThrows(StoreSaturatedException.class, () -> caller.call(() -> probe(link)));
                long tookMillis = (System.nanoTime() - start) / 1_000_000;
                assertTrue(tookMillis < BUDGET.toMillis() * 2, "call " + i + " took " + tookMillis + " ms");
            }
            assertEquals(shown, breaker.calls.get(), "a full pool is load: the breaker never hears of it");
        } finally {
            held.forEach(Connection::close);
        }
        assertSame(Thread.currentThread(), caller.call(() -> {
            probe(link);
            return Thread.currentThread();
        }));
        assertFalse(breaker.calls.get() > shown, "still on the caller's thread, breaker closed");
    }
}
