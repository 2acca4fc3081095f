package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.core.DirectLane;
import dev.tollgate.testing.Await;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * Automatic pipelining on a real Redis: calls made while another is in flight go in one write, every
 * caller gets its own reply (and only its own error), a lost script cache is reloaded inside a batch,
 * and no caller waits past its budget for a frozen Redis, whether it writes the batch or waits in it.
 */
class AutoPipelineTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    static final LuaScript COUNTER = LuaScript.named("counter");

    private final List<AutoCloseable> open = new ArrayList<>();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @AfterEach
    void close() throws Exception {
        threads.shutdownNow();
        redis.resume();
        for (AutoCloseable c : open) {
            c.close();
        }
    }

    /** A link with {@code connections} idle pooled connections, so every call runs on its caller's thread. */
    private RedisLink link(Duration budget, int connections) {
        RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), budget, connections));
        open.add(link);
        link.ping();
        List<Connection> made = new ArrayList<>();
        while (made.size() < connections) {
            made.add(link.builtPool().getResource());
        }
        made.forEach(Connection::close);
        return link;
    }

    /** One call as the guard makes it: a leased connection, the script run on it. */
    private static Object incr(RedisLink link, Duration budget, String key, String by) throws Exception {
        try (DirectLane.Lease lease = link.lane().lease(budget.toNanos())) {
            return lease.run(() -> link.eval(COUNTER, List.of(key), List.of(by, "60000")));
        }
    }

    /** Starts {@code n} calls together and returns their outcomes (a value or the exception). */
    private List<Object> together(List<Callable<Object>> calls) throws Exception {
        return outcomes(start(calls, new CopyOnWriteArrayList<>()));
    }

    /** Starts {@code calls} together, each on its own thread, which it adds to {@code callers}. */
    private List<Future<Object>> start(List<Callable<Object>> calls, List<Thread> callers) {
        CountDownLatch ready = new CountDownLatch(calls.size());
        List<Future<Object>> futures = new ArrayList<>();
        for (Callable<Object> call : calls) {
            futures.add(threads.submit(() -> {
                callers.add(Thread.currentThread());
                ready.countDown();
                ready.await();
                try {
                    return call.call();
                } catch (Exception e) {
                    return e;
                }
            }));
        }
        return futures;
    }

    private static List<Object> outcomes(List<Future<Object>> futures) throws Exception {
        List<Object> outcomes = new ArrayList<>();
        for (Future<Object> f : futures) {
            outcomes.add(f.get(30, TimeUnit.SECONDS));
        }
        return outcomes;
    }

    /**
     * 8 calls {@code incr(<prefix>:{i}, by(i))} started together while Redis holds every write ({@code
     * CLIENT PAUSE WRITE}): Redis is let go once it holds the first in flight and the other 7 are parked
     * in the queue behind it.
     */
    private List<Object> eightWhilePaused(RedisLink link, Duration budget, String prefix, IntFunction<String> by)
            throws Exception {
        List<Callable<Object>> calls = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            String key = prefix + ":{" + i + "}";
            String increment = by.apply(i);
            calls.add(() -> incr(link, budget, key, increment));
        }
        List<Thread> callers = new CopyOnWriteArrayList<>();
        List<Future<Object>> futures;
        try (Jedis admin = admin()) {
            admin.clientPause(30_000, ClientPauseMode.WRITE);
            try {
                futures = start(calls, callers);
                Await.until(
                        "one call held by the pause, 7 parked behind it",
                        () -> Await.blockedClients(admin) == 1
                                && callers.size() == 8
                                && callers.stream()
                                                .filter(AutoPipelineTest::parked)
                                                .count()
                                        == 7);
            } finally {
                admin.clientUnpause();
            }
        }
        return outcomes(futures);
    }

    /** Parked with a timeout: in the pipeline's queue (a leased connection was idle, the latch untimed). */
    private static boolean parked(Thread caller) {
        return caller.getState() == Thread.State.TIMED_WAITING;
    }

    /** Whether {@code caller} writes alone: inside its own connection's {@code executeCommand}. */
    private static boolean writingAlone(Thread caller) {
        for (StackTraceElement frame : caller.getStackTrace()) {
            if (frame.getMethodName().equals("executeCommand")
                    && frame.getClassName().equals(Connection.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private static Jedis admin() {
        return new Jedis(redis.host(), redis.port());
    }

    @Test
    void callsMadeWhileOneIsInFlightGoInOneWriteAndEachGetsItsOwnReply() throws Exception {
        Duration budget = Duration.ofSeconds(10);
        RedisLink link = link(budget, 8);
        try (Jedis admin = admin()) {
            admin.set("n:{7}", "41");
        }
        List<Object> replies = eightWhilePaused(link, budget, "n", i -> Integer.toString(i + 1));
        for (int i = 0; i < 7; i++) {
            assertEquals((long) i + 1, replies.get(i), "call " + i + ": its own key's count");
        }
        assertEquals(49L, replies.get(7));
        assertEquals(7, link.pipelined(), "one call alone, then the 7 that queued behind it in one write");
    }

    @Test
    void everyCallerOfManyGetsItsOwnReplies() throws Exception {
        Duration budget = Duration.ofSeconds(10);
        RedisLink link = link(budget, 16);
        List<Callable<Object>> calls = new ArrayList<>();
        for (int t = 0; t < 16; t++) {
            String key = "many:{" + t + "}";
            calls.add(() -> {
                for (long expected = 1; expected <= 300; expected++) {
                    Object reply = incr(link, budget, key, "1");
                    if (!Long.valueOf(expected).equals(reply)) {
                        return key + " got " + reply + " for its call " + expected;
                    }
                }
                return "ok";
            });
        }
        assertEquals(java.util.Collections.nCopies(16, "ok"), together(calls));
        assertTrue(link.pipelined() > 0, "16 threads calling at once shared writes");
    }

    @Test
    void anErrorReplyGoesToItsOwnCallerOnly() throws Exception {
        Duration budget = Duration.ofSeconds(10);
        RedisLink link = link(budget, 8);
        List<Object> replies = eightWhilePaused(link, budget, "e", i -> i == 5 ? "five" : "1");
        for (int i = 0; i < 8; i++) {
            if (i == 5) {
                RedisException refused = assertInstanceOf(RedisException.class, replies.get(i));
                assertInstanceOf(JedisDataException.class, refused.getCause(), "Redis's error reply, to this call");
            } else {
                assertEquals(1L, replies.get(i), "call " + i);
            }
        }
        assertEquals(7, link.pipelined());
    }

    @Test
    void aLostScriptCacheIsReloadedForEveryCallOfABatch() throws Exception {
        Duration budget = Duration.ofSeconds(10);
        RedisLink link = link(budget, 8);
        incr(link, budget, "s:{warm}", "1");
        try (Jedis admin = admin()) {
            admin.scriptFlush();
        }
        assertEquals(List.of(1L, 1L, 1L, 1L, 1L, 1L, 1L, 1L), eightWhilePaused(link, budget, "s", i -> "1"));
        assertEquals(7, link.pipelined());
    }

    @Test
    void anInterruptedCallerStillGetsItsReplyAndKeepsTheInterrupt() throws Exception {
        Duration budget = Duration.ofSeconds(10);
        RedisLink link = link(budget, 2);
        Future<Object> first;
        Future<String> second;
        try (Jedis admin = admin()) {
            admin.clientPause(30_000, ClientPauseMode.WRITE);
            try {
                first = threads.submit(() -> incr(link, budget, "i:{1}", "1"));
                Await.until("the first call held by the pause", () -> Await.blockedClients(admin) == 1);
                AtomicReference<Thread> secondCaller = new AtomicReference<>();
                second = threads.submit(() -> {
                    secondCaller.set(Thread.currentThread());
                    Thread.currentThread().interrupt(); // the wait parks past it, and gives it back
                    Object reply = incr(link, budget, "i:{2}", "1");
                    return reply + (Thread.currentThread().isInterrupted() ? " interrupted" : " not interrupted");
                });
                Await.until(
                        "the interrupted call parked behind the first",
                        () -> secondCaller.get() != null && parked(secondCaller.get()));
            } finally {
                admin.clientUnpause();
            }
        }
        assertEquals(1L, first.get(30, TimeUnit.SECONDS));
        assertEquals("1 interrupted", second.get(30, TimeUnit.SECONDS));
    }

    @Test
    void noCallerWaitsForAFrozenRedisPastItsBudgetWhetherItWritesOrWaitsBehindAWriter() throws Exception {
        Duration writersBudget = Duration.ofSeconds(2);
        Duration budget = Duration.ofMillis(300);
        RedisLink link = link(writersBudget, 8);
        redis.pause();
        // One call with a long budget is in flight first; 7 with a short one queue behind it.
        AtomicReference<Thread> writing = new AtomicReference<>();
        Future<String> writer = threads.submit(() -> {
            writing.set(Thread.currentThread());
            return frozenCall(link, writersBudget, "f:{w}");
        });
        Await.until("the long-budget call writing alone", () -> writing.get() != null && writingAlone(writing.get()));
        List<Future<String>> queued = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String key = "f:{" + i + "}";
            queued.add(threads.submit(() -> frozenCall(link, budget, key)));
        }
        for (Future<String> q : queued) {
            // Without its own deadline, a queued caller would wait for the writer's 1.8 s read.
            assertEquals("timed out", q.get(30, TimeUnit.SECONDS));
        }
        assertEquals("timed out", writer.get(30, TimeUnit.SECONDS));
        redis.resume();
        assertEquals(1L, incr(link, Duration.ofSeconds(10), "f:{after}", "1"), "answered once thawed");
    }

    /** A call to a frozen Redis: "timed out" within its budget (loosely: a loaded machine is slow), or what went wrong. */
    private static String frozenCall(RedisLink link, Duration budget, String key) {
        long start = System.nanoTime();
        try {
            return "answered by a frozen Redis: " + incr(link, budget, key, "1");
        } catch (Exception e) {
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return RedisLink.timedOut(e) && ms < budget.toMillis() + 250 ? "timed out" : ms + " ms: " + e;
        }
    }
}
