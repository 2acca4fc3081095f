package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.LockLost;
import dev.tollgate.LockUnavailableException;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Redis killed or frozen under a real client: nothing is reported acquired, and nothing runs. */
class LockFailClosedTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private final List<LockLost> lost = new CopyOnWriteArrayList<>();
    private RedisLink link;
    private RedisDistributedLock lock;

    @BeforeEach
    void connect() throws Exception {
        redis.restart();
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofMillis(250), 4));
        lock = RedisDistributedLock.using(GuardedRedis.unguarded(link), lost::add);
    }

    @AfterEach
    void close() {
        lock.close();
        link.close();
    }

    @Test
    void waitingOnAKilledRedisIsUnavailableAtOnce() throws Exception {
        redis.kill();
        long start = System.nanoTime();
        Acquisition a = lock.tryAcquire("export", Duration.ofHours(1), Duration.ofSeconds(5));
        long tookMillis = (System.nanoTime() - start) / 1_000_000;
        assertInstanceOf(Acquisition.Unavailable.class, a);
        assertTrue(tookMillis < 1000, "no wait for a store that cannot be asked: " + tookMillis + " ms");
    }

    @Test
    void keepAliveThatCannotReachRedisUntilTheTtlPassesReportsTheLockUnconfirmedOnce() throws Exception {
        LockHandle held =
                lock.tryAcquire("export", Duration.ofMillis(900)).handle().orElseThrow();
        held.keepAlive();
        redis.kill();
        try (LogCapture log = new LogCapture(Keeper.class)) {
            for (int i = 0; i < 300 && lost.isEmpty(); i++) {
                Thread.sleep(10);
            }
            assertEquals(List.of(new LockLost("export", held.fencingToken(), LockLost.Reason.UNCONFIRMED)), lost);
            assertFalse(held.isHeld());
            Thread.sleep(700);
            assertEquals(1, lost.size(), "told once; the keep-alive stopped");
            assertEquals(1, log.at(Level.WARNING).size(), log.at(Level.WARNING).toString());
            assertTrue(
                    log.at(Level.WARNING).get(0).contains("could not be reached"),
                    log.at(Level.WARNING).get(0));
        }
    }

    @Test
    void killedRedisMakesTryAcquireUnavailable() throws Exception {
        redis.kill();
        Acquisition.Unavailable u =
                assertInstanceOf(Acquisition.Unavailable.class, lock.tryAcquire("export", Duration.ofHours(1)));
        assertEquals("export", u.lockName());
        assertTrue(u.handle().isEmpty());
    }

    @Test
    void killedRedisSkipsTheJobCountsItAndWarnsOncePerRun() throws Exception {
        CountingLockMetrics metrics = new CountingLockMetrics();
        OncePerClusterRunner runner = new OncePerClusterRunner(lock, metrics, System::nanoTime);
        AtomicInteger runs = new AtomicInteger();
        redis.kill();
        try (LogCapture log = new LogCapture(OncePerClusterRunner.class)) {
            JobRun run = runner.run(LockSpec.of("nightly-export", Duration.ofHours(1)), runs::incrementAndGet);
            assertEquals(RunOutcome.UNAVAILABLE, run.outcome());
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(
                    warnings.get(0)
                            .matches("Tollgate: lock 'nightly-export' is unavailable \\(the lock store could not be"
                                    + " asked: JedisConnectionException: .+\\): job skipped \\(fail closed\\)"),
                    warnings.get(0));
            assertTrue(log.oneLineEach(Level.WARNING), "the cause's class and message, no stack trace");
            runner.run(LockSpec.of("nightly-export", Duration.ofHours(1)), runs::incrementAndGet);
            assertEquals(2, log.at(Level.WARNING).size(), "one warning per skipped run");
        }
        assertEquals(0, runs.get());
        assertEquals(Map.of("unavailable:nightly-export", 2), metrics.counts());
    }

    @Test
    void releaseAndExtendOnAKilledRedisThrowButCloseOnlyWarns() throws Exception {
        LockHandle held =
                lock.tryAcquire("export", Duration.ofHours(1)).handle().orElseThrow();
        LockHandle closed =
                lock.tryAcquire("import", Duration.ofHours(1)).handle().orElseThrow();
        redis.kill();
        LockUnavailableException e =
                assertThrows(LockUnavailableException.class, () -> held.extend(Duration.ofHours(1)));
        assertEquals("export", e.lockName());
        assertThrows(LockUnavailableException.class, held::release);
        try (LogCapture log = new LogCapture(HeldLock.class)) {
            closed.close();
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(
                    warnings.get(0)
                            .matches("Tollgate: lock 'import' could not be released \\(JedisConnectionException: .+\\);"
                                    + " it expires by itself when its ttl passes"),
                    warnings.get(0));
            assertTrue(log.oneLineEach(Level.WARNING), "the cause's class and message, no stack trace");
        }
    }

    @Test
    void frozenRedisMakesTryAcquireUnavailableAndTheTimedOutScriptMayStillTakeTheLock() throws Exception {
        // A warm connection and a cached script, so that the request itself reaches the frozen server.
        lock.tryAcquire("warm-up", Duration.ofSeconds(30));
        redis.pause();
        Acquisition a;
        try {
            a = lock.tryAcquire("export", Duration.ofSeconds(30));
        } finally {
            redis.resume();
        }
        assertInstanceOf(Acquisition.Unavailable.class, a, "a timeout is never reported as acquired");
        try (Jedis j = redis.admin()) {
            // Redis ran the script it had already received once it was thawed: the lock is taken, its
            // token is known to nobody, and it stays until its ttl passes (fail closed, for at most the ttl).
            assertTrue(j.exists("tollgate:lock:{export}"));
            assertTrue(j.exists("tollgate:fence:{export}"), "a token was handed out, to nobody");
        }
        assertInstanceOf(Acquisition.HeldElsewhere.class, lock.tryAcquire("export", Duration.ofSeconds(30)));
    }
}
