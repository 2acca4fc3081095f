package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockLost;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** The "run once" core, on the in-process lock with one driven clock for the lock and the runner. */
class OncePerClusterRunnerTest {

    private final AtomicLong micros = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessDistributedLock lock = new InProcessDistributedLock(micros::get);
    private final CountingLockMetrics metrics = new CountingLockMetrics();
    private final OncePerClusterRunner runner = new OncePerClusterRunner(lock, metrics, () -> micros.get() * 1000);
    private final AtomicInteger runs = new AtomicInteger();

    private Object job(Duration takes) {
        runs.incrementAndGet();
        micros.addAndGet(takes.toNanos() / 1000);
        return "done";
    }

    @Test
    void freeLockRunsTheJobAndReleasesTheLockAfter() throws Exception {
        JobRun run = runner.run(LockSpec.of("export", Duration.ofHours(1)), () -> job(Duration.ofSeconds(3)));
        assertEquals(new JobRun(RunOutcome.RAN, "done"), run);
        assertEquals(1, runs.get());
        assertEquals(Map.of("acquired:export", 1), metrics.counts());
        assertEquals(
                micros.get(),
                lock.tryAcquire("export", Duration.ofSeconds(1))
                        .handle()
                        .orElseThrow()
                        .fencingToken(),
                "released: the next acquisition's token is the clock's microseconds");
    }

    @Test
    void lockHeldElsewhereSkipsTheJobAndLogsOnlyAtFine() throws Exception {
        lock.tryAcquire("export", Duration.ofHours(1));
        try (LogCapture log = new LogCapture(OncePerClusterRunner.class)) {
            JobRun run = runner.run(LockSpec.of("export", Duration.ofHours(1)), () -> job(Duration.ZERO));
            assertEquals(RunOutcome.HELD_ELSEWHERE, run.outcome());
            assertEquals(List.of(), log.at(Level.WARNING));
            assertEquals(1, log.at(Level.FINE).size());
        }
        assertEquals(0, runs.get());
        assertEquals(Map.of("heldElsewhere:export", 1), metrics.counts());
    }

    @Test
    void jobShorterThanAtLeastKeepsTheLockForTheRestOfAtLeast() throws Exception {
        LockSpec spec = new LockSpec("export", Duration.ofHours(1), Duration.ofSeconds(10));
        assertTrue(runner.run(spec, () -> job(Duration.ofSeconds(3))).ran());
        Acquisition peer = lock.tryAcquire("export", Duration.ofHours(1));
        assertEquals(
                Duration.ofSeconds(7),
                assertInstanceOf(Acquisition.HeldElsewhere.class, peer).expiresIn(),
                "held until at-least after the start, not the hour");
        micros.addAndGet(7_000_000);
        assertInstanceOf(Acquisition.Acquired.class, lock.tryAcquire("export", Duration.ofHours(1)));
    }

    @Test
    void jobLongerThanAtLeastReleasesTheLockAtOnce() throws Exception {
        LockSpec spec = new LockSpec("export", Duration.ofHours(1), Duration.ofSeconds(10));
        assertTrue(runner.run(spec, () -> job(Duration.ofSeconds(11))).ran());
        assertInstanceOf(Acquisition.Acquired.class, lock.tryAcquire("export", Duration.ofHours(1)));
    }

    @Test
    void failingJobPassesItsExceptionAndStillLetsTheLockGo() {
        IllegalStateException boom = new IllegalStateException("boom");
        IllegalStateException thrown = assertThrows(
                IllegalStateException.class,
                () -> runner.run(LockSpec.of("export", Duration.ofHours(1)), () -> {
                    throw boom;
                }));
        assertSame(boom, thrown);
        assertInstanceOf(Acquisition.Acquired.class, lock.tryAcquire("export", Duration.ofHours(1)));
    }

    @Test
    void jobThatOutlivesItsTtlWarnsThatAnotherServerMayHaveRunIt() throws Exception {
        try (LogCapture log = new LogCapture(OncePerClusterRunner.class)) {
            runner.run(LockSpec.of("export", Duration.ofSeconds(5)), () -> job(Duration.ofSeconds(6)));
            List<String> warnings = log.at(Level.WARNING);
            assertEquals(1, warnings.size());
            assertTrue(warnings.get(0).contains("lock 'export' expired while its job ran"), warnings.get(0));
        }
    }

    @Test
    void unavailableLockSkipsTheJobWithOneWarningPerRun() throws Exception {
        DistributedLock broken = new DistributedLock() {
            @Override
            public Acquisition tryAcquire(String name, Duration ttl) {
                return new Acquisition.Unavailable(name, new RuntimeException("refused"));
            }

            @Override
            public Acquisition tryAcquire(String name, Duration ttl, Duration maxWait) {
                return tryAcquire(name, ttl);
            }
        };
        OncePerClusterRunner failing = new OncePerClusterRunner(broken, metrics, System::nanoTime);
        try (LogCapture log = new LogCapture(OncePerClusterRunner.class)) {
            for (int i = 0; i < 2; i++) {
                assertFalse(failing.run(LockSpec.of("export", Duration.ofHours(1)), () -> job(Duration.ZERO))
                        .ran());
            }
            assertEquals(2, log.at(Level.WARNING).size());
        }
        assertEquals(0, runs.get());
        assertEquals(Map.of("unavailable:export", 2), metrics.counts());
    }

    @Test
    void keptAliveJobThreeTimesItsTtlKeepsTheLockThroughoutAndStopsWithTheJob() throws Exception {
        DrivenScheduler scheduler = new DrivenScheduler(micros);
        List<LockLost> lost = new ArrayList<>();
        InProcessDistributedLock kept = new InProcessDistributedLock(
                micros::get,
                new Keeper(() -> scheduler, lost::add, () -> micros.get() * 1000),
                Duration.ofSeconds(1),
                "runner-test");
        OncePerClusterRunner keeping = new OncePerClusterRunner(kept, metrics, () -> micros.get() * 1000);
        List<Acquisition> duringTheJob = new ArrayList<>();
        JobRun run = keeping.run(LockSpec.of("export", Duration.ofSeconds(10)).keptAlive(), () -> {
            for (int s = 0; s < 3; s++) {
                scheduler.advance(Duration.ofSeconds(10));
                duringTheJob.add(kept.tryAcquire("export", Duration.ofSeconds(1)));
            }
            return "done";
        });
        assertEquals(new JobRun(RunOutcome.RAN, "done"), run);
        duringTheJob.forEach(a -> assertInstanceOf(Acquisition.HeldElsewhere.class, a));
        assertEquals(0, scheduler.running(), "the keep-alive stopped with the job");
        assertEquals(List.of(), lost);
        assertInstanceOf(
                Acquisition.Acquired.class,
                kept.tryAcquire("export", Duration.ofSeconds(1)),
                "released when the job ended");
    }

    @Test
    void keptAliveJobShorterThanAtLeastIsNotExtendedPastAtLeast() throws Exception {
        DrivenScheduler scheduler = new DrivenScheduler(micros);
        InProcessDistributedLock kept = new InProcessDistributedLock(
                micros::get,
                new Keeper(() -> scheduler, LockLostListener.NONE, () -> micros.get() * 1000),
                Duration.ofSeconds(1),
                "runner-test");
        OncePerClusterRunner keeping = new OncePerClusterRunner(kept, metrics, () -> micros.get() * 1000);
        LockSpec spec = new LockSpec("export", Duration.ofSeconds(30), Duration.ofSeconds(10), true);
        keeping.run(spec, () -> {
            scheduler.advance(Duration.ofSeconds(3));
            return null;
        });
        scheduler.advance(Duration.ofSeconds(6));
        assertInstanceOf(Acquisition.HeldElsewhere.class, kept.tryAcquire("export", Duration.ofSeconds(1)));
        scheduler.advance(Duration.ofSeconds(1));
        assertInstanceOf(Acquisition.Acquired.class, kept.tryAcquire("export", Duration.ofSeconds(1)));
    }
}
