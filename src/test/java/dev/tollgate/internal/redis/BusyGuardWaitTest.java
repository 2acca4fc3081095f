package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.core.StoreSaturatedException;
import dev.tollgate.internal.guard.ExecutorCaller;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.util.Pool;

/**
 * When every connection, or every worker and queue place, is busy: a call waits for one within its budget
 * and is served when one frees in time; when none does it is saturated ({@link DegradedCause#SATURATED})
 * after waiting its budget, not before and not much after, and the breaker never hears of it. The busy
 * calls are real Redis calls that block ({@code BLPOP}) until the test pushes their release, so what is
 * busy, and when it frees, is the test's to say: counted, not raced.
 */
class BusyGuardWaitTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final List<AutoCloseable> open = new ArrayList<>();
    private final String release = "busy:" + UUID.randomUUID();

    @AfterEach
    void close() throws Exception {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 8; i++) {
                j.lpush(release, "go"); // whatever still blocks ends
            }
        }
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** Every call on a worker: the lane of a pool that would have to make a connection. */
    private ExecutorCaller workers(Duration budget, int workers, CallerThreadLaneTest.CountingBreaker breaker) {
        ExecutorCaller caller =
                new ExecutorCaller(GuardSettings.defaults(budget, workers), breaker, RedisFailures::classify);
        open.add(caller);
        return caller;
    }

    /** A real Redis call that blocks until the test pushes its release. */
    private Callable<String> blocked() {
        return () -> {
            try (Jedis j = redis.admin()) {
                return j.blpop(30, release).get(1);
            }
        };
    }

    private static Callable<String> ping() {
        return () -> {
            try (Jedis j = redis.admin()) {
                return j.ping();
            }
        };
    }

    @Test
    void aCallWaitsForAWorkerPlaceThatFreesWithinItsBudget() throws Exception {
        CallerThreadLaneTest.CountingBreaker breaker = new CallerThreadLaneTest.CountingBreaker();
        ExecutorCaller caller = workers(Duration.ofSeconds(5), 2, breaker);
        List<CompletableFuture<String>> busy = new ArrayList<>();
        for (int i = 0; i < 4; i++) { // 2 workers and 2 queue places
            busy.add(async(caller, blocked()));
        }
        await("both workers blocked in Redis", () -> blockedClients() == 2);
        Thread waiter = Thread.currentThread();
        CompletableFuture<String> released = CompletableFuture.supplyAsync(() -> {
            await("the fifth call waiting for a place", () -> waiter.getState() == Thread.State.TIMED_WAITING);
            try (Jedis j = redis.admin()) {
                for (int i = 0; i < 4; i++) {
                    j.lpush(release, "go");
                }
            }
            return "released";
        });
        assertEquals("PONG", caller.call(ping()), "served once the places freed, within its budget");
        assertEquals("released", released.get(10, TimeUnit.SECONDS));
        for (CompletableFuture<String> f : busy) {
            assertEquals("go", f.get(10, TimeUnit.SECONDS));
        }
        assertFalse(breakerOpen(breaker), "a wait for a place is not an outage");
    }

    @Test
    void whenEveryWorkerAndPlaceStaysTakenTheCallIsSaturatedAfterItsBudgetAndTheBreakerNeverHearsOfIt()
            throws Exception {
        Duration budget = Duration.ofMillis(300);
        CallerThreadLaneTest.CountingBreaker breaker = new CallerThreadLaneTest.CountingBreaker();
        ExecutorCaller caller = workers(budget, 1, breaker); // 1 worker, 2 places
        CompletableFuture<String> running = async(caller, blocked());
        await("the worker blocked in Redis", () -> blockedClients() == 1);
        CompletableFuture<String> queued = new CompletableFuture<>();
        Thread queuedCaller = new Thread(() -> {
            try {
                queued.complete(caller.call(blocked()));
            } catch (Exception e) {
                queued.completeExceptionally(e);
            }
        });
        queuedCaller.start();
        // Holding the second place, waiting for its queued call: nothing is left for the next one.
        await("the second call queued", () -> queuedCaller.getState() == Thread.State.TIMED_WAITING);
        long start = System.nanoTime();
        Exception refused = assertThrowsAny(() -> caller.call(ping()));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertInstanceOf(StoreSaturatedException.class, refused);
        assertEquals(DegradedCause.SATURATED, caller.causeOf(refused));
        assertTrue(
                tookMillis >= budget.toMillis() - 5 && tookMillis < 2 * budget.toMillis(),
                "waited its budget for a place, then gave up: " + tookMillis + " ms");
        Exception queuedOutcome = failureOf(queued);
        assertInstanceOf(
                StoreSaturatedException.class, queuedOutcome, "queued, and no worker reached it within its budget");
        assertEquals(1, breaker.calls.get(), "only the call a worker ran was shown to the breaker");
        try (Jedis j = redis.admin()) {
            j.lpush(release, "go");
        }
        await("the worker freed", () -> blockedClients() == 0);
        assertEquals("PONG", caller.call(ping()), "the bulkhead serves again once its worker is free");
        assertFalse(breakerOpen(breaker), "a full bulkhead is load, not an outage");
        running.handle((v, e) -> null).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallWaitsForAPooledConnectionThatFreesWithinItsBudget() throws Exception {
        RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), Duration.ofSeconds(5), 1));
        open.add(link);
        CallerThreadLaneTest.CountingBreaker breaker = new CallerThreadLaneTest.CountingBreaker();
        ExecutorCaller caller = new ExecutorCaller(
                GuardSettings.defaults(Duration.ofSeconds(5), 1), breaker, link.lane(), RedisFailures::classify);
        open.add(caller);
        link.eval(CallerThreadLaneTest.PROBE, List.of("tollgate:{probe}"), List.of()); // builds the pool
        Pool<Connection> pool = link.builtPool();
        List<Connection> held = new ArrayList<>();
        while (pool.getNumActive() < pool.getMaxTotal()) {
            held.add(pool.getResource());
        }
        Thread waiter = Thread.currentThread();
        CompletableFuture<Void> freed = CompletableFuture.runAsync(() -> {
            await("the call waiting for a connection", () -> waiter.getState() == Thread.State.TIMED_WAITING);
            held.remove(0).close();
        });
        try {
            assertSame(
                    Thread.currentThread(),
                    caller.call(() -> {
                        link.eval(CallerThreadLaneTest.PROBE, List.of("tollgate:{probe}"), List.of());
                        return Thread.currentThread();
                    }),
                    "served on the caller's thread by the connection given back");
            freed.get(10, TimeUnit.SECONDS);
        } finally {
            held.forEach(Connection::close);
        }
    }

    @Test
    void aPoolThatStaysFullIsSaturatedAfterItsBudgetNotAtOnce() throws Exception {
        Duration budget = Duration.ofMillis(300);
        RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), budget, 1));
        open.add(link);
        CallerThreadLaneTest.CountingBreaker breaker = new CallerThreadLaneTest.CountingBreaker();
        ExecutorCaller caller =
                new ExecutorCaller(GuardSettings.defaults(budget, 1), breaker, link.lane(), RedisFailures::classify);
        open.add(caller);
        link.eval(CallerThreadLaneTest.PROBE, List.of("tollgate:{probe}"), List.of());
        Pool<Connection> pool = link.builtPool();
        List<Connection> held = new ArrayList<>();
        while (pool.getNumActive() < pool.getMaxTotal()) {
            held.add(pool.getResource());
        }
        try {
            long start = System.nanoTime();
            Exception refused = assertThrowsAny(() ->
                    caller.call(() -> link.eval(CallerThreadLaneTest.PROBE, List.of("tollgate:{probe}"), List.of())));
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertInstanceOf(StoreSaturatedException.class, refused);
            assertTrue(
                    tookMillis >= budget.toMillis() - 5 && tookMillis < 2 * budget.toMillis(),
                    "waited its budget for a connection, then gave up: " + tookMillis + " ms");
            assertEquals(0, breaker.calls.get(), "the breaker never hears of a full pool");
        } finally {
            held.forEach(Connection::close);
        }
    }

    private static boolean breakerOpen(CallerThreadLaneTest.CountingBreaker breaker) {
        try {
            breaker.real.call(() -> null);
            return false;
        } catch (Exception open) {
            return true;
        }
    }

    private static long blockedClients() {
        try (Jedis j = redis.admin()) {
            for (String line : j.info("clients").split("\r?\n")) {
                if (line.startsWith("blocked_clients:")) {
                    return Long.parseLong(
                            line.substring("blocked_clients:".length()).trim());
                }
            }
        }
        throw new IllegalStateException("no blocked_clients in INFO clients");
    }

    private static <T> CompletableFuture<T> async(ExecutorCaller caller, Callable<T> call) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return caller.call(call);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    private static Exception failureOf(CompletableFuture<?> f) throws InterruptedException {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("expected a failure, got a value");
        } catch (ExecutionException e) {
            return (Exception) e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no outcome within 10 s", e);
        }
    }

    private static Exception assertThrowsAny(Callable<?> call) {
        try {
            call.call();
        } catch (Exception e) {
            return e;
        }
        throw new AssertionError("expected a failure");
    }

    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("waited 10 s for " + what);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
