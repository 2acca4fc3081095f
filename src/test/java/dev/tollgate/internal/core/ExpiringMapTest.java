package dev.tollgate.internal.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The skeleton of every in-process store: one key's steps run one at a time and see its state only
 * while it is live; a step that answers no state forgets the key; a failing step changes nothing; the
 * weights stay within the bound; a map keeping live entries refuses a new key rather than evict one.
 */
class ExpiringMapTest {

    private final ManualClock clock = new ManualClock();

    /** A count that lives until {@code until}, weighing {@code weight}. */
    private record Count(long n, long until, long weight) {}

    private ExpiringMap<Count> map(long maxWeight) {
        return new ExpiringMap<>(clock, Count::until, maxWeight, Count::weight);
    }

    private static ExpiringMap.Step<Count, Long> add(long until) {
        return (live, now) -> {
            long n = live == null ? 1 : live.n() + 1;
            return new ExpiringMap.Updated<>(new Count(n, until, 1), n);
        };
    }

    @Test
    void concurrentStepsOnOneKeyAndOnNewKeysAreEachCountedOnce() throws Exception {
        ExpiringMap<Count> counts = map(Long.MAX_VALUE);
        int threads = 8;
        int each = 20_000;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger failures = new AtomicInteger();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < each; i++) {
                        counts.update("hot", add(Long.MAX_VALUE));
                        // Every thread's own fresh keys, and one forgotten at once by another step.
                        counts.update("fresh-" + id + "-" + (i % 100), add(Long.MAX_VALUE));
                        counts.update("gone", (live, now) -> new ExpiringMap.Updated<>(null, null));
                    }
                } catch (Throwable e) {
                    failures.incrementAndGet();
                }
            });
            thread.start();
            all.add(thread);
        }
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        assertEquals(0, failures.get());
        assertEquals(threads * (long) each, counts.get("hot").orElseThrow().n());
        assertEquals(Optional.empty(), counts.get("gone"));
        assertEquals(1 + threads * 100, counts.size());
        assertEquals(1 + threads * 100, counts.weight(), "each entry's weight counted once");
    }

    @Test
    void aStepSeesTheStateOnlyWhileItIsLive() {
        ExpiringMap<Count> counts = map(Long.MAX_VALUE);
        long until = clock.nowMicros() + 1_000_000;
        assertEquals(1L, counts.update("k", add(until)));
        assertEquals(2L, counts.update("k", add(until)));
        clock.elapse(Duration.ofSeconds(1));
        assertEquals(Optional.empty(), counts.get("k"));
        assertEquals(1L, counts.update("k", add(Long.MAX_VALUE)), "an expired state is not seen");
        assertEquals(1, counts.size());
    }

    /** A mutable count, changed in place. */
    private static final class Tally {
        long n;
        long until;
        long weight = 1;
    }

    /** Adds one to the tally, which lives until {@code arg}; a fresh tally's {@code n} starts at 100. */
    private static final ExpiringMap.InPlace<Tally, Long, Long> ADD_IN_PLACE = new ExpiringMap.InPlace<>() {
        @Override
        public Tally fresh(Long until, long now) {
            Tally t = new Tally();
            t.n = 100;
            return t;
        }

        @Override
        public Long apply(Tally t, Long until, long now) {
            t.until = until;
            return ++t.n;
        }
    };

    @Test
    void anInPlaceStepKeepsTheStateItChangedAndAFreshOneOnlyForAKeyWithoutALiveState() {
        ExpiringMap<Tally> tallies = new ExpiringMap<>(clock, t -> t.until, 2, t -> t.weight);
        long until = clock.nowMicros() + 1_000_000;
        assertEquals(101L, tallies.updateInPlace("k", ADD_IN_PLACE, until));
        Tally kept = tallies.get("k").orElseThrow();
        assertEquals(102L, tallies.updateInPlace("k", ADD_IN_PLACE, until));
        assertTrue(kept == tallies.get("k").orElseThrow(), "the same state, changed in place");
        assertEquals(102L, kept.n);
        assertEquals(1, tallies.weight());
        kept.weight = 2; // the weight is read again after each step
        tallies.updateInPlace("k", ADD_IN_PLACE, until);
        assertEquals(2, tallies.weight());
        clock.elapse(Duration.ofSeconds(1));
        assertEquals(Optional.empty(), tallies.get("k"));
        assertEquals(101L, tallies.updateInPlace("k", ADD_IN_PLACE, Long.MAX_VALUE), "an expired state is not seen");
        assertEquals(1, tallies.size());
        // The in-place and the replacing steps share one entry per key.
        long replaced = tallies.update("k", (live, now) -> {
            live.n++;
            return new ExpiringMap.Updated<>(live, live.n);
        });
        assertEquals(102L, replaced);
        ExpiringMap<Tally> locks = ExpiringMap.keepingLive(clock, t -> t.until, 1);
        locks.updateInPlace("a", ADD_IN_PLACE, Long.MAX_VALUE);
        assertThrows(ExpiringMap.Full.class, () -> locks.updateInPlace("b", ADD_IN_PLACE, Long.MAX_VALUE));
    }

    @Test
    void aFailingStepChangesNothingAndANewKeyWhoseStepFailsIsNotKept() {
        ExpiringMap<Count> counts = map(Long.MAX_VALUE);
        counts.update("k", add(Long.MAX_VALUE));
        ExpiringMap.Step<Count, Long> fails = (live, now) -> {
            throw new IllegalStateException("no");
        };
        assertThrows(IllegalStateException.class, () -> counts.update("k", fails));
        assertThrows(IllegalStateException.class, () -> counts.update("new", fails));
        assertEquals(1L, counts.get("k").orElseThrow().n());
        assertEquals(Optional.empty(), counts.get("new"));
        assertEquals(1, counts.size());
        assertEquals(1, counts.weight());
    }

    @Test
    void weightsFollowTheStatesAndStayWithinTheBound() {
        ExpiringMap<Count> counts = map(10);
        counts.update("heavy", (live, now) -> new ExpiringMap.Updated<>(new Count(1, Long.MAX_VALUE, 4), null));
        assertEquals(4, counts.weight());
        counts.update("heavy", (live, now) -> new ExpiringMap.Updated<>(new Count(2, Long.MAX_VALUE, 6), null));
        assertEquals(6, counts.weight());
        for (int i = 0; i < 20; i++) {
            clock.add(1);
            counts.update("light-" + i, add(Long.MAX_VALUE));
            assertTrue(counts.weight() <= 10, "weight " + counts.weight());
            if (i == 4) {
                assertEquals(Optional.empty(), counts.get("heavy"), "the least recently updated went first");
                assertEquals(5, counts.weight());
            }
        }
        assertEquals(Optional.empty(), counts.get("light-0"));
        assertTrue(counts.get("light-19").isPresent(), "the key just updated is never the one evicted");
        counts.clear();
        assertEquals(0, counts.size());
        assertEquals(0, counts.weight());
    }

    @Test
    void aMapKeepingLiveEntriesRefusesANewKeyUntilOneExpires() {
        ExpiringMap<Count> locks = ExpiringMap.keepingLive(clock, Count::until, 3);
        long until = clock.nowMicros() + 1_000_000;
        for (int i = 0; i < 3; i++) {
            locks.update("lock-" + i, add(until));
        }
        assertThrows(ExpiringMap.Full.class, () -> locks.update("lock-3", add(until)));
        assertEquals(3, locks.size());
        assertEquals(2L, locks.update("lock-0", add(until)), "a held key is still updated");
        clock.elapse(Duration.ofSeconds(1));
        assertEquals(1L, locks.update("lock-3", add(Long.MAX_VALUE)), "an expired entry made room");
        assertTrue(locks.weight() <= 3);
    }

    /**
     * A map of a hot key or two rests between the sweep's rounds (a round begins at most once per {@link
     * ExpiringMap#SHORTEST_ROUND_MICROS}), yet an entry that expires beside the hot key goes within one.
     */
    @Test
    void anExpiredEntryBesideAHotKeyIsSweptWithinAShortRound() {
        ExpiringMap<Count> counts = map(Long.MAX_VALUE);
        counts.update("hot", add(Long.MAX_VALUE));
        counts.update("old", add(clock.nowMicros() + 1));
        long step = ExpiringMap.SHORTEST_ROUND_MICROS / 100;
        int calls = 0;
        while (counts.size() > 1 && calls < 10_000) {
            clock.add(step);
            counts.update("hot", add(Long.MAX_VALUE));
            calls++;
        }
        assertEquals(1, counts.size());
        assertTrue(calls <= 2 * ExpiringMap.SHORTEST_ROUND_MICROS / step, "swept within " + calls + " calls");
        assertNull(counts.get("old").orElse(null));
    }

    /** A clock that steps back ends the rest: the sweep does not wait for it to catch up. */
    @Test
    void aClockSteppingBackDoesNotStopTheSweep() {
        ExpiringMap<Count> counts = map(Long.MAX_VALUE);
        counts.update("hot", add(Long.MAX_VALUE));
        counts.update("hot", add(Long.MAX_VALUE)); // a round ended at once: resting
        clock.add(-3_600_000_000L);
        counts.update("old", add(clock.nowMicros() + 1));
        clock.add(ExpiringMap.SHORTEST_ROUND_MICROS + 1);
        for (int i = 0; i < 4; i++) {
            counts.update("hot", add(Long.MAX_VALUE));
        }
        assertEquals(1, counts.size(), "swept an hour before the rest's end");
    }
}
