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
 * The warm-up's empty call through the breaker is a success that proves nothing about Redis: once a
 * user call has had Redis's answer, a warm-up that comes late (its thread set aside by a busy machine)
 * must not make it, or it lands in an outage that began meanwhile and wipes the failures the breaker
 * had counted in a row ({@code RedisOutageTest} saw a fourth timeout where its threshold is 3, under
 * load). A Redis of this class's own, killed: its calls are refused at once, counted, not timed.
 */
class WarmUpTest {

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
        link.close();
    }

    private Object probe() {
        return link.eval(PROBE, List.of("tollgate:{probe}"), List.of());
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
        redis.restart();
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
