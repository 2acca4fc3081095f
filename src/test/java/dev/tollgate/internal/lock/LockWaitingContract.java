package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What {@link DistributedLock#tryAcquire(String, Duration, Duration)} must do, on real time: a waiter
 * is woken by the release itself, not by its poll (a second here), and never waits past its maxWait.
 */
public abstract class LockWaitingContract {

    /**
     * How often a waiter tries again with no notice (both locks here): a waiter that overslept its maxWait
     * or the holder's ttl by its poll is at least this late, whatever the machine's load.
     */
    static final Duration POLL = Duration.ofSeconds(1);

    /** The waiting lock under test. */
    protected abstract DistributedLock lock();

    /** Another server's lock on the same store (a lock of its own, with its own listener). */
    protected abstract DistributedLock otherServer();

    /** The clock the locks' ttls run on, in microseconds (Redis {@code TIME}, or the in-process clock). */
    protected abstract long storeMicros();

    protected static String freshName() {
        return "waiting-" + UUID.randomUUID();
    }

    private LockHandle acquire(DistributedLock lock, String name, Duration ttl) {
        return assertInstanceOf(Acquisition.Acquired.class, lock.tryAcquire(name, ttl))
                .lock();
    }

    @Test
    void waiterIsWokenByTheReleaseNotByItsPoll() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        List<Long> latencies = new ArrayList<>();
        try {
            for (int round = 0; round < 20; round++) {
                String name = freshName();
                LockHandle holder = acquire(otherServer(), name, Duration.ofSeconds(30));
                AtomicLong acquiredAt = new AtomicLong();
                AtomicReference<Thread> waiting = new AtomicReference<>();
                Future<Acquisition> waiter = pool.submit(() -> {
                    waiting.set(Thread.currentThread());
                    Acquisition a = lock().tryAcquire(name, Duration.ofSeconds(10), Duration.ofSeconds(5));
                    acquiredAt.set(System.nanoTime());
                    return a;
                });
                awaitAsleepForANotice(waiting); // tried once, found it held: its poll would wake it only after a second
                long releasedAt = System.nanoTime();
                assertTrue(holder.release());
                LockHandle got = assertInstanceOf(Acquisition.Acquired.class, waiter.get(5, TimeUnit.SECONDS))
                        .lock();
                latencies.add(TimeUnit.NANOSECONDS.toMicros(acquiredAt.get() - releasedAt));
                assertTrue(got.fencingToken() > holder.fencingToken());
                got.close();
            }
        } finally {
            pool.shutdownNow();
        }
        List<Long> sorted = latencies.stream().sorted().toList();
        System.out.println(getClass().getSimpleName() + ": release to acquired, us: median " + sorted.get(10) + ", max "
                + sorted.get(19) + " " + latencies);
        // The poll comes round a second after the waiter's try, which found the lock held and put it to sleep
        // just before the release (seen in its stack): a waiter woken by it holds the lock 850 ms or more after. Every
        // one well before that was woken
        // by the release itself, however loaded the machine; the median says it is fast, not just first.
        assertTrue(
                sorted.get(19) < 500_000, "every waiter within 500 ms of the release (a poll: 850 ms+): " + latencies);
        assertTrue(sorted.get(10) < 50_000, "the median waiter within 50 ms of the release: " + latencies);
    }

    /**
     * Until {@code waiter} sleeps waiting for a release notice (in {@code ReleaseNotices.Notice.await}): it has
     * tried once and found the lock held, so a release now is one it must be woken by.
     */
    private static void awaitAsleepForANotice(AtomicReference<Thread> waiter) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!asleepForANotice(waiter.get()) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(asleepForANotice(waiter.get()), "the waiter asleep for a release notice within 10 s");
    }

    private static boolean asleepForANotice(Thread t) {
        if (t == null || (t.getState() != Thread.State.TIMED_WAITING && t.getState() != Thread.State.WAITING)) {
            return false;
        }
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().endsWith("ReleaseNotices$Notice")
                    && f.getMethodName().equals("await")) {
                return true;
            }
        }
        return false;
    }

    /** MaxWait runs on the waiter's own clock ({@link System#nanoTime}), so it is measured there. */
    @Test
    void waitEndsAtMaxWaitWhileTheHolderKeepsTheLock() {
        String name = freshName();
        LockHandle holder = acquire(otherServer(), name, Duration.ofSeconds(30));
        long start = System.nanoTime();
        Acquisition a = lock().tryAcquire(name, Duration.ofSeconds(10), Duration.ofMillis(300));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        assertInstanceOf(Acquisition.HeldElsewhere.class, a);
        // Never before maxWait; and not by a poll after it (a waiter that napped its poll past its
        // maxWait returns at 1 s or later, one that ignored it at the holder's 30 s).
        assertTrue(
                waited.compareTo(Duration.ofMillis(300)) >= 0 && waited.compareTo(POLL) < 0,
                "waited " + waited.toMillis() + " ms for a maxWait of 300 ms (a poll: " + POLL.toMillis() + " ms+)");
        assertTrue(holder.release());
    }

    /** The ttl runs on the store's clock, so the lower bound is measured there; the poll on the waiter's. */
    @Test
    void waiterTakesTheLockWhenTheHoldersTtlPasses() {
        String name = freshName();
        long beforeTaken = storeMicros();
        LockHandle dead = acquire(otherServer(), name, Duration.ofMillis(400)); // never released: its holder died
        long start = System.nanoTime();
        Acquisition a = lock().tryAcquire(name, Duration.ofSeconds(10), Duration.ofSeconds(3));
        Duration waited = Duration.ofNanos(System.nanoTime() - start);
        long afterAcquired = storeMicros();
        assertTrue(assertInstanceOf(Acquisition.Acquired.class, a).lock().fencingToken() > dead.fencingToken());
        assertTrue(
                afterAcquired - beforeTaken >= 400_000,
                "acquired " + (afterAcquired - beforeTaken) / 1000.0
                        + " ms of store time after the 400 ms lock was taken");
        // Woken by the holder's time left, not by the poll: one woken by the poll takes it a second
        // after its first try, or later.
        assertTrue(
                waited.compareTo(POLL) < 0,
                "acquired " + waited.toMillis() + " ms into the wait (a poll: " + POLL.toMillis() + " ms+)");
    }

    @Test
    void waitersTakeTheLockOneAtATime() throws Exception {
        String name = freshName();
        LockHandle holder = acquire(otherServer(), name, Duration.ofSeconds(30));
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Long>> waiters = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                DistributedLock server = i % 2 == 0 ? lock() : otherServer();
                waiters.add(pool.submit(() -> {
                    LockHandle h = assertInstanceOf(
                                    Acquisition.Acquired.class,
                                    server.tryAcquire(name, Duration.ofSeconds(10), Duration.ofSeconds(10)))
                            .lock();
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max);
                    Thread.sleep(20);
                    inside.decrementAndGet();
                    assertTrue(h.release());
                    return h.fencingToken();
                }));
            }
            Thread.sleep(100);
            assertTrue(holder.release());
            List<Long> tokens = new ArrayList<>();
            for (Future<Long> w : waiters) {
                tokens.add(w.get(15, TimeUnit.SECONDS));
            }
            assertEquals(1, most.get(), "never two holders at once");
            assertEquals(8, tokens.stream().distinct().count(), "eight acquisitions, eight tokens: " + tokens);
            assertTrue(tokens.stream().allMatch(t -> t > holder.fencingToken()), "each above the first holder's");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void interruptedWaiterReturnsHeldElsewhereWithItsFlagSet() throws Exception {
        String name = freshName();
        LockHandle holder = acquire(otherServer(), name, Duration.ofSeconds(30));
        Thread.currentThread().interrupt();
        try {
            Acquisition a = lock().tryAcquire(name, Duration.ofSeconds(10), Duration.ofSeconds(5));
            assertInstanceOf(Acquisition.HeldElsewhere.class, a);
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
        assertTrue(holder.release());
    }
}
