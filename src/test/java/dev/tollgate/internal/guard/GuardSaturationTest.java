package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RecordedCauses;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TcpLink;
import dev.tollgate.testing.TestSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A flood: more checks at once than the guard's connections and queue places (pool-size × 2). A check
 * waits for a place within its budget instead of being refused at once; what still cannot be served in
 * the budget is degraded with cause {@code saturated}, and a full pool never opens the breaker. One
 * connection, a link that delays every reply: counted, not timed.
 */
class GuardSaturationTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final RecordedCauses causes = new RecordedCauses();

    private Engine tollgate(TcpLink link, String budget, String limit) {
        return Engine.builder(TestSettings.read(
                        "tollgate.redis.url",
                        link.url(),
                        "tollgate.redis.timeout",
                        budget,
                        "tollgate.redis.pool-size",
                        "1",
                        "tollgate.limits." + limit + ".capacity",
                        "1000",
                        "tollgate.limits." + limit + ".refill-tokens",
                        "1",
                        "tollgate.limits." + limit + ".refill-period",
                        "1h",
                        "tollgate.limits." + limit + ".key",
                        "global"))
                .listener(causes)
                .build();
    }

    @Test
    void checksBeyondTwicePoolSizeWaitForAPlaceWithinTheBudget() throws Exception {
        String limit = "flood-" + UUID.randomUUID();
        try (TcpLink link = new TcpLink(redis.port());
                Engine tollgate = tollgate(link, "3s", limit)) {
            warm(tollgate, limit);
            long before = causes.count("redis");
            link.slow(40);
            List<Decision> decisions = concurrently(8, () -> tollgate.check(limit, "k"));
            for (Decision d : decisions) {
                assertFalse(d.degraded(), "8 checks at once on 1 connection, 40 ms each: all within 3 s; " + causes);
            }
            assertEquals(8, causes.count("redis") - before, causes.toString());
            link.fast();
            long left = tollgate.check(limit, "k").remaining();
            long warmDegraded =
                    causes.count(DegradedCause.TIMEOUT) + causes.count(DegradedCause.REFUSED); // may have reached Redis
            assertTrue(
                    left <= 1000 - before - 9 && left >= 1000 - before - 9 - warmDegraded,
                    "each check spent its token once: " + left);
        }
    }

    @Test
    void whatCannotBeServedInTheBudgetIsSaturatedAndNeverOpensTheBreaker() throws Exception {
        String limit = "saturated-" + UUID.randomUUID();
        try (TcpLink link = new TcpLink(redis.port());
                Engine tollgate = tollgate(link, "400ms", limit);
                LogCapture log = new LogCapture(RedisGuard.class)) {
            warm(tollgate, limit);
            long timeoutsBefore = causes.count(DegradedCause.TIMEOUT);
            link.slow(150);
            List<Decision> decisions = concurrently(12, () -> tollgate.check(limit, "k"));
            long degraded = decisions.stream().filter(Decision::degraded).count();
            long saturated = causes.count(DegradedCause.SATURATED);
            // One connection, every reply 150 ms late, a 400 ms budget: the connection serves calls one after
            // another, at 0, 150, 300 and 450 ms. At most 3 answer within their budgets (the third ends at 450 ms,
            // within the budget of a check that began it some 50 ms late); a 4th may reach Redis after its budget
            // (load or timeout); the 8 or more others never get the connection in time (saturated). A loaded
            // machine only starts fewer.
            assertTrue(degraded >= 9, "at most 3 of 12 answered in the budget: " + degraded + " degraded; " + causes);
            assertTrue(
                    saturated >= 8, "12 checks of 150 ms on one connection in 400 ms: 8 or more saturated; " + causes);
            // A check whose worker was still in its call at the budget, while Redis answered others, is load.
            long load = causes.count(DegradedCause.LOAD);
            assertEquals(
                    degraded,
                    saturated + load + causes.count(DegradedCause.TIMEOUT) - timeoutsBefore,
                    causes.toString());
            assertEquals(0, causes.count(DegradedCause.BREAKER_OPEN), causes.toString());
            assertFalse(tollgate.breakerState().orElseThrow().isOpen(), "a full pool is not an outage");
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(load > 0 ? 2 : 1, warnings.size(), "one line per cause, not one per check: " + warnings);
            assertTrue(warnings.stream().anyMatch(w -> w.contains("cause saturated")), warnings.toString());
            link.fast();
            awaitWorkersIdle(); // the calls already on their way end
            assertFalse(tollgate.check(limit, "k").degraded(), "decided by Redis");
        }
    }

    /** Until every worker of the guard is idle, waiting in its pool for a call: no call is on its way. */
    private static void awaitWorkersIdle() throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!workersIdle() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(workersIdle(), "the guard's workers idle within 10 s");
    }

    private static boolean workersIdle() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getName().matches("tollgate-redis-\\d+"))
                .allMatch(e ->
                        Stream.of(e.getValue()).anyMatch(f -> f.getMethodName().equals("getTask")));
    }

    /** Until a check is decided by Redis: the first connection through the link is slow on a loaded machine. */
    private static void warm(Engine tollgate, String limit) throws InterruptedException {
        for (int i = 0; i < 50 && tollgate.check(limit, "k").degraded(); i++) {
            Thread.sleep(100);
        }
        BreakerState breaker = tollgate.breakerState().orElseThrow();
        for (int i = 0; i < 50 && breaker.isOpen(); i++) {
            Thread.sleep(100);
        }
        assertFalse(tollgate.check(limit, "k").degraded(), "warm");
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
