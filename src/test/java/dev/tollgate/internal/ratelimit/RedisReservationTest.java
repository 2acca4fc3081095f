package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class RedisReservationTest extends ReservationContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 40));
        store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return redis;
    }

    @Test
    void windowsCannotBeWaitedFor() {
        RedisRateLimitStore window = RedisRateLimitStore.using(Algorithm.SLIDING_WINDOW, link);
        assertThrows(
                UnsupportedOperationException.class,
                () -> window.reserve(ONE_PER_SECOND, freshKey(), Duration.ofSeconds(1)));
    }

    /**
     * 32 callers at once, each sleeping its wait and then noting Redis's clock: the k-th to run ran no
     * sooner than k × 100 ms after the burst began (the limit), and no later than k × 100 ms after the
     * first reservation was answered, plus scheduling jitter (its reserved instant is no later).
     */
    @Test
    void thirtyTwoWaitersRunSpacedAsTheLimitAllows() throws Exception {
        LimitPolicy p = new LimitPolicy("wait", 1, 10, Duration.ofSeconds(1), 1);
        String key = freshKey();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<long[]>> callers = new ArrayList<>();
        long began;
        try {
            for (int i = 0; i < 32; i++) {
                callers.add(pool.submit(() -> {
                    start.await();
                    Reservation r = store.reserve(p, key, Duration.ofSeconds(1));
                    long answered = redis.timeMicros();
                    if (!r.decision().allowed()) {
                        return new long[] {answered};
                    }
                    Thread.sleep(r.delay().toMillis(), r.delay().toNanosPart() % 1_000_000);
                    return new long[] {answered, redis.timeMicros()};
                }));
            }
            began = redis.timeMicros();
            start.countDown();
            List<Long> ran = new ArrayList<>();
            long firstAnswer = Long.MAX_VALUE;
            for (Future<long[]> f : callers) {
                long[] call = f.get();
                firstAnswer = Math.min(firstAnswer, call[0]);
                if (call.length == 2) {
                    ran.add(call[1]);
                }
            }
            ran.sort(null);
            long lastAnswer = callers.stream()
                    .mapToLong(f -> {
                        try {
                            return f.get()[0];
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    })
                    .max()
                    .orElseThrow();
            assertTrue(
                    ran.size() >= 11 && ran.size() <= 11 + (lastAnswer - began) / 100_000,
                    "ran " + ran.size() + " of 32, the burst answered within " + (lastAnswer - began) / 1000 + " ms");
            for (int k = 0; k < ran.size(); k++) {
                long after = ran.get(k) - began;
                assertTrue(
                        after >= k * 100_000L, "call " + k + " ran " + after / 1000 + " ms in: sooner than the limit");
                long late = ran.get(k) - (firstAnswer + k * 100_000L);
                assertTrue(late <= 300_000, "call " + k + " ran " + late / 1000 + " ms after its reserved instant");
            }
            System.out.println("waiting: " + ran.size() + " of 32 ran, at "
                    + ran.stream().map(t -> (t - began) / 1000 + "ms").toList());
        } finally {
            pool.shutdownNow();
        }
    }
}
