package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.DegradedCause;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisFailures;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.internal.redis.RedisUrl;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The breaker counts outages in a row, and {@link ExecutorCaller} shows it a success only after a
 * failure it recorded: so every failure it records, on the caller's thread or on a worker, must make
 * the next success show itself. Otherwise a failure of a call that needed a new connection (a worker's)
 * stays the breaker's last outcome through every success after it, and the next outage opens the
 * breaker one failure early: {@code DegradedCausesIT} saw 1 timeout where its threshold is 2. A Redis
 * of this class's own, killed (calls refused at once: counted, not timed) and started again.
 *
 * <p>The same holds for the guard's warm-up: its empty call through the breaker is a success that proves
 * nothing about Redis. Once a user call has had Redis's answer, a warm-up that comes late (its thread set
 * aside by a busy machine) must not make it, or it lands in an outage begun meanwhile and wipes the
 * failures the breaker had counted in a row ({@code RedisOutageTest} saw a fourth timeout where its
 * threshold is 3, under load).
 */
class RecordedOutcomesTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private static final Duration BUDGET = Duration.ofSeconds(1);
    private static final LuaScript PROBE = LuaScript.named("probe");

    private final RedisLink link = RedisClients.create(new RedisSettings(RedisUrl.parse(redis.url()), BUDGET, 4));
    private final ConsecutiveFailuresBreaker breaker =
            new ConsecutiveFailuresBreaker(2, Duration.ofMinutes(1), System::nanoTime);
    private final ExecutorCaller caller =
            new ExecutorCaller(GuardSettings.defaults(BUDGET, 4), breaker, link.lane(), RedisFailures::classify);

    private final CountDownLatch warming = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private volatile Thread warmUpThread;
    private volatile boolean probed;

    /** The warm-up's probe, held until the test lets it go; it answers without asking Redis. */
    private Object heldProbe() throws InterruptedException {
        warmUpThread = Thread.currentThread();
        warming.countDown();
        release.await();
        probed = true;
        return null;
    }

    private final RedisGuard guard =
            new RedisGuard(caller, this::heldProbe, Duration.ofMinutes(1), "the test's Redis", System::nanoTime);

    @AfterEach
    void close() throws Exception {
        release.countDown();
        guard.close();
        caller.close();
        link.close();
        redis.restart(); // each test kills it
    }

    private Object probe() {
        return link.eval(PROBE, List.of("tollgate:{probe}"), List.of());
    }

    @Test
    void aWorkersFailureMakesTheNextSuccessShowItselfToTheBreaker() throws Exception {
        probe(); // builds the client, outside the guard
        link.dropIdleConnections(); // no idle connection: the next call makes one, on a worker
        redis.kill();
        Exception refused = assertThrows(Exception.class, () -> caller.call(this::probe));
        assertEquals(DegradedCause.REFUSED, caller.causeOf(refused), String.valueOf(refused));

        redis.restart();
        probe(); // a connection made outside the guard (as a heartbeat's or a subscription's is), now idle
        caller.call(this::probe); // on the caller's thread, on that idle connection: Redis answered
        assertFalse(breaker.isOpen());

        redis.kill();
        Exception again = assertThrows(Exception.class, () -> caller.call(this::probe));
        assertEquals(DegradedCause.REFUSED, caller.causeOf(again), String.valueOf(again));
        assertFalse(breaker.isOpen(), "one failure since Redis answered: a threshold of 2 is not reached");
        Exception third = assertThrows(Exception.class, () -> caller.call(this::probe));
        assertEquals(DegradedCause.REFUSED, caller.causeOf(third), String.valueOf(third));
        assertTrue(breaker.isOpen(), "two failures in a row open it");
    }

    @Test
    void aWarmUpThatComesAfterRedisAnsweredACallDoesNotWipeTheFailuresOfAnOutage() throws Exception {
        guard.warmUp();
        assertTrue(warming.await(10, TimeUnit.SECONDS), "the warm-up began");
        guard.call("k", this::probe); // a user call that Redis answers, while the warm-up is held
        redis.kill();
        StoreUnavailableException first =
                assertThrows(StoreUnavailableException.class, () -> guard.call("k", this::probe));
        assertEquals(DegradedCause.REFUSED, first.degradedCause());
        assertFalse(breaker.isOpen(), "one failure: a threshold of 2 is not reached");

        release.countDown(); // the warm-up goes on, in the middle of the outage
        awaitWarmUpEnded();

        StoreUnavailableException second =
                assertThrows(StoreUnavailableException.class, () -> guard.call("k", this::probe));
        assertEquals(DegradedCause.REFUSED, second.degradedCause());
        assertTrue(breaker.isOpen(), "two failures in a row open it, whatever the warm-up did between them");
    }

    /** Until the warm-up's probe has returned and its thread has left the warm-up. */
    private void awaitWarmUpEnded() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!probed
                || Arrays.stream(warmUpThread.getStackTrace())
                        .anyMatch(f -> f.getClassName().equals(RedisGuard.class.getName()))) {
            assertTrue(System.nanoTime() < deadline, "the warm-up ended");
            Thread.sleep(5);
        }
    }
}
