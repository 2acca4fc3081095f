package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.DegradedCause;
import dev.tollgate.LockHandle;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.testing.DrivenScheduler;
import dev.tollgate.testing.LogCapture;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Lock names can be made from what clients send ({@code "export:" + tenant}): the in-process locks keep
 * at most their bound of names however many arrive, and never make room by forgetting a held lock (a
 * second holder would get in) or a fencing token still ahead of the clock (the next token could repeat).
 */
class InProcessLockBoundsTest {

    private static final int BOUND = 100;
    private static final Duration HOUR = Duration.ofHours(1);

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final DrivenScheduler scheduler = new DrivenScheduler(clock);
    private final InProcessDistributedLock lock = new InProcessDistributedLock(
            clock::get,
            new Keeper(() -> scheduler, l -> {}, () -> clock.get() * 1000),
            Duration.ofSeconds(1),
            "bounds-test",
            BOUND);

    @AfterEach
    void close() {
        lock.close();
    }

    @Test
    void aFloodOfNamesIsRefusedPastTheBoundAndHeldLocksStayHeld() throws Exception {
        List<LockHandle> held = new ArrayList<>();
        for (int i = 0; i < BOUND; i++) {
            held.add(lock.tryAcquire("held-" + i, HOUR).handle().orElseThrow());
        }
        int refused;
        List<String> warnings;
        try (LogCapture log = new LogCapture(InProcessDistributedLock.class)) {
            refused = flood(4, 2_500);
            warnings = log.at(Level.WARNING);
        }
        for (int i = 0; i < BOUND; i++) {
            assertInstanceOf(
                    Acquisition.HeldElsewhere.class,
                    lock.tryAcquire("held-" + i, HOUR),
                    "held-" + i + " was held: nobody else may take it");
            assertTrue(held.get(i).extend(HOUR), "held-" + i + " is still its holder's");
        }
        assertTrue(lock.size() <= BOUND, "kept " + lock.size());
        assertEquals(10_000, refused, "every new name refused while every kept one is held");
        assertEquals(1, warnings.size(), "one WARNING while it lasts: " + warnings);
        assertEquals(BOUND, lock.held().size());
    }

    @Test
    void aRefusedNameIsUnavailableNotTaken() {
        for (int i = 0; i < BOUND; i++) {
            lock.tryAcquire("held-" + i, HOUR);
        }
        Acquisition a = lock.tryAcquire("one-more", HOUR);
        StoreUnavailableException cause = (StoreUnavailableException)
                assertInstanceOf(Acquisition.Unavailable.class, a).cause();
        assertEquals(DegradedCause.SATURATED, cause.degradedCause());
        assertTrue(cause.getMessage().contains("lock 'one-more' refused"), cause.getMessage());
    }

    @Test
    void expiredAndReleasedNamesMakeRoom() {
        for (int i = 0; i < BOUND / 2; i++) {
            lock.tryAcquire("short-" + i, Duration.ofSeconds(1));
            lock.tryAcquire("released-" + i, HOUR).handle().orElseThrow().release();
        }
        scheduler.advance(Duration.ofSeconds(2));
        for (int i = 0; i < BOUND; i++) {
            assertInstanceOf(Acquisition.Acquired.class, lock.tryAcquire("new-" + i, HOUR), "new-" + i);
        }
        assertTrue(lock.size() <= BOUND, "kept " + lock.size());
    }

    /**
     * Tokens taken faster than the clock moves run ahead of it: such a name is kept while its token is
     * ahead, even free, so its next token is still the next one.
     */
    @Test
    void aFencingTokenAheadOfTheClockIsNeverForgotten() {
        long last = 0;
        for (int i = 0; i < 10; i++) {
            LockHandle h = lock.tryAcquire("fenced", HOUR).handle().orElseThrow();
            last = h.fencingToken();
            h.release();
        }
        assertTrue(last > clock.get(), "ten tokens within one microsecond run ahead of the clock");
        int taken = 0;
        for (int i = 0; i < 2 * BOUND; i++) {
            taken += lock.tryAcquire("other-" + i, HOUR) instanceof Acquisition.Acquired ? 1 : 0;
        }
        assertEquals(BOUND - 1, taken, "'fenced' keeps its place");
        LockHandle again = lock.tryAcquire("fenced", HOUR).handle().orElseThrow();
        assertEquals(last + 1, again.fencingToken());
    }

    /** {@code threads} callers each asking for {@code each} fresh names at once; how many were refused. */
    private int flood(int threads, int each) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    int refused = 0;
                    for (int i = 0; i < each; i++) {
                        Acquisition a = lock.tryAcquire("flood-" + thread + "-" + i, HOUR);
                        refused += a instanceof Acquisition.Unavailable ? 1 : 0;
                    }
                    return refused;
                }));
            }
            int refused = 0;
            for (Future<Integer> f : results) {
                refused += f.get();
            }
            return refused;
        } finally {
            pool.shutdownNow();
        }
    }
}
