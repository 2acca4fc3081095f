package dev.tollgate.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

    private RedisLink link;
    private RedisDistributedLock lock;

    @BeforeEach
    void connect() throws Exception {
        redis.restart();
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofMillis(250), 4));
        lock = RedisDistributedLock.using(link);
    }

    @AfterEach
    void close() {
        link.close();
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
