package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Several limits on one call, all or nothing ({@link RateLimiter#admit}), and giving tokens back
 * ({@link RateLimitStore#refund}), through Tollgate as users build it: every backend (Redis, a Redis
 * Cluster, this JVM) must pass it. Quotas that never refill and windows of 100 years keep the counts
 * independent of the test's own running time.
 */
public abstract class AllOrNothingContract {

    /** Tollgate over the backend under test, with the limits of {@link #LIMITS}. */
    protected abstract Engine tollgate();

    /** The backend's clock. */
    protected abstract TestClock clock();

    /** What the store holds for a token bucket's {@code tokens} field, read past Tollgate; null in process. */
    protected abstract String storedTokens(String storeKey);

    private static final String CENTURY = "36525d";

    /** The limits every backend's Tollgate is built with. */
    protected static final String[] LIMITS = {
        "tollgate.limits.small.capacity", "100",
        "tollgate.limits.small.refill-tokens", "0",
        "tollgate.limits.small.persist", "true",
        "tollgate.limits.big.capacity", "300",
        "tollgate.limits.big.refill-tokens", "0",
        "tollgate.limits.big.persist", "true",
        "tollgate.limits.fw.algorithm", "fixed-window",
        "tollgate.limits.fw.capacity", "100",
        "tollgate.limits.fw.refill-period", CENTURY,
        "tollgate.limits.sw.algorithm", "sliding-window",
        "tollgate.limits.sw.capacity", "300",
        "tollgate.limits.sw.refill-period", CENTURY,
        "tollgate.limits.tb.capacity", "200",
        "tollgate.limits.tb.refill-tokens", "0",
        "tollgate.limits.tb.persist", "true",
        "tollgate.limits.short.algorithm", "fixed-window",
        "tollgate.limits.short.capacity", "5",
        "tollgate.limits.short.refill-period", "1s",
        // Ten minutes, not one second, where a test's six calls must fall in one window (a 1 s window rolled
        // between them now and then on the cluster); still far shorter than slow's hour.
        "tollgate.limits.ten-min.algorithm", "fixed-window",
        "tollgate.limits.ten-min.capacity", "5",
        "tollgate.limits.ten-min.refill-period", "10m",
        "tollgate.limits.slow.capacity", "5",
        "tollgate.limits.slow.refill-tokens", "1",
        "tollgate.limits.slow.refill-period", "1h",
        "tollgate.limits.year.algorithm", "calendar",
        "tollgate.limits.year.capacity", "100",
        "tollgate.limits.year.period", "year",
        "tollgate.limits.year.zone", "Europe/Berlin",
    };

    private static String fresh() {
        return UUID.randomUUID().toString();
    }

    private Charge charge(String limit, String clientKey) {
        return Charge.of(tollgate().limit(limit), clientKey);
    }

    private Admission admit(String clientKey, String... limits) {
        List<Charge> charges = new ArrayList<>();
        for (String l : limits) {
            charges.add(charge(l, clientKey));
        }
        return tollgate().limiter().admit(charges, Duration.ZERO);
    }

    /** What one more call would find left in {@code limit} for {@code clientKey} (it spends one). */
    private long leftAfterOneMore(String limit, String clientKey) {
        return tollgate().limiter().check(tollgate().limit(limit), clientKey).remaining() + 1;
    }

    @Test
    void aCallDeniedByOneLimitSpendsNothingFromTheOthers() {
        String key = fresh();
        for (int i = 0; i < 5; i++) {
            assertTrue(admit(key, "slow", "ten-min").allowed());
        }
        Admission denied = admit(key, "big", "slow", "ten-min");
        assertFalse(denied.allowed());
        assertEquals("slow", denied.denied().orElseThrow().charge().name(), "the longest retry-after is named");
        assertEquals(300, leftAfterOneMore("big", key), "big's token was given back");
        assertTrue(denied.charged().get(1).decision().retryAfter().compareTo(Duration.ofMinutes(59)) > 0);
    }

    @Test
    void aCalendarQuotaBesideARateLimitIsAllOrNothing() {
        String key = fresh();
        for (int i = 0; i < 5; i++) {
            assertTrue(admit(key, "year", "slow").allowed());
        }
        Admission denied = admit(key, "year", "slow");
        assertFalse(denied.allowed());
        assertEquals("slow", denied.denied().orElseThrow().charge().name());
        assertEquals(95, leftAfterOneMore("year", key), "the quota's unit was given back");
        Admission refunded = admit(key, "year");
        refunded.refund();
        assertEquals(94, leftAfterOneMore("year", key), "a refund gives the quota back in its period");
    }

    @Test
    void theDenyingLimitWithTheLongestRetryIsNamed() {
        String key = fresh();
        for (int i = 0; i < 5; i++) {
            admit(key, "ten-min", "slow");
        }
        Admission both = admit(key, "ten-min", "slow");
        assertEquals(
                2, both.charged().stream().filter(c -> !c.decision().allowed()).count());
        assertEquals("slow", both.denied().orElseThrow().charge().name());
    }

    @Test
    void aCostAboveTheCapacityIsDeniedForeverWithoutSpending() {
        String key = fresh();
        Admission a = tollgate()
                .limiter()
                .admit(List.of(charge("big", key), charge("slow", key).costing(6)), Duration.ZERO);
        assertFalse(a.allowed());
        assertEquals(Decision.NEVER, a.denied().orElseThrow().decision().retryAfter());
        assertEquals(300, leftAfterOneMore("big", key));
        assertEquals(5, leftAfterOneMore("slow", key));
    }

    @Test
    void aCostWithinTheCapacitySpendsThatMany() {
        String key = fresh();
        Admission a = tollgate().limiter().admit(List.of(charge("big", key).costing(120)), Duration.ZERO);
        assertTrue(a.allowed());
        assertEquals(180, a.decision(0).remaining());
    }

    @Test
    void aRefundGivesBackOnceAndNeverAboveCapacity() {
        String key = fresh();
        Admission a = admit(key, "slow", "fw", "sw");
        assertTrue(a.allowed());
        a.refund();
        a.refund();
        assertEquals(5, leftAfterOneMore("slow", key), "never above capacity");
        assertEquals(100, leftAfterOneMore("fw", key));
        assertEquals(300, leftAfterOneMore("sw", key));
    }

    @Test
    void aTokenBucketRefundNeverRaisesItAboveCapacity() {
        String key = fresh();
        Admission a = admit(key, "slow");
        a.refund();
        tollgate().limiter().refund(a.charged());
        assertEquals(5, leftAfterOneMore("slow", key), "a second refund of the same tokens finds the bucket full");
        Admission first = admit(key, "slow");
        Admission second = admit(key, "slow");
        assertEquals(2, second.decision(0).remaining());
        first.refund();
        second.refund();
        assertEquals(3, admit(key, "slow").decision(0).remaining(), "4 (the read above took one), less this call");
    }

    /**
     * The old window's refund finds the new window and gives it nothing. Windows are aligned to the
     * clock, so a round that straddles a boundary of the new window proves nothing: it is run again.
     */
    @Test
    void aFixedWindowRefundOnlyGivesBackToTheCallsOwnWindow() throws Exception {
        for (int round = 0; round < 5; round++) {
            String key = fresh();
            Admission old = admit(key, "short");
            assertTrue(old.allowed());
            clock().elapse(old.decision(0).resetAfter().plusMillis(1));
            List<Admission> next = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                next.add(admit(key, "short"));
            }
            old.refund();
            Admission last = admit(key, "short");
            long window = next.get(0).charged().get(0).mark();
            if (last.charged().get(0).decision().resetAfter().isZero()
                    || next.stream().anyMatch(a -> a.charged().get(0).mark() != window)
                    || nowEndsAfter(window, last)) {
                continue;
            }
            assertTrue(next.stream().allMatch(Admission::allowed));
            assertFalse(last.allowed(), "the new window got nothing from the old one's refund");
            return;
        }
        throw new AssertionError("5 rounds straddled a window boundary");
    }

    /** Whether the last call fell into a window after {@code window} (then it was admitted afresh). */
    private static boolean nowEndsAfter(long window, Admission last) {
        return last.allowed() && last.charged().get(0).mark() != window;
    }

    @Test
    void aSlidingWindowRefundRemovesOnlyTheCallsOwnEntries() {
        String key = fresh();
        Admission kept = admit(key, "sw");
        Admission given = tollgate().limiter().admit(List.of(charge("sw", key).costing(7)), Duration.ZERO);
        Admission alsoKept = admit(key, "sw");
        assertTrue(kept.allowed() && given.allowed() && alsoKept.allowed());
        given.refund();
        assertEquals(298, leftAfterOneMore("sw", key));
    }

    /**
     * 1000 calls, 32 in flight, under two limits: exactly the smaller limit's count passes, and the
     * larger one stays spent by exactly that many, in either order (the larger first: 900 denied calls
     * each spend from it and give back).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void underConcurrencyTheSmallerLimitsCountPassesAndTheOtherSpendsExactlyThat(boolean largerFirst) throws Exception {
        String key = fresh();
        String[] limits = largerFirst ? new String[] {"big", "small"} : new String[] {"small", "big"};
        assertEquals(100, admitted(key, 1000, 32, limits));
        assertEquals(200, leftAfterOneMore("big", key));
        assertEquals(
                0, tollgate().limiter().check(tollgate().limit("small"), key).remaining());
        String stored = storedTokens(StoreKeys.DEFAULT.of("big", key));
        if (stored != null) {
            assertEquals(199.0, Double.parseDouble(stored), "big as Redis holds it (one more spent by the read)");
        }
    }

    /** Three algorithms on one call: a sliding window, a token bucket and a fixed window, 32 in flight. */
    @Test
    void underConcurrencyEveryAlgorithmSpendsExactlyWhatPassed() throws Exception {
        String key = fresh();
        assertEquals(100, admitted(key, 1000, 32, "sw", "tb", "fw"));
        assertEquals(200, leftAfterOneMore("sw", key));
        assertEquals(100, leftAfterOneMore("tb", key));
    }

    /** Limits of different key kinds (one bucket for everyone, one per client): other keys, other slots. */
    @Test
    void underConcurrencyAGlobalAndAPerClientLimitStayExact() throws Exception {
        String global = fresh();
        String client = fresh();
        int passed = run(1000, 32, () -> tollgate()
                .limiter()
                .admit(List.of(charge("big", global), charge("small", client)), Duration.ZERO)
                .allowed());
        assertEquals(100, passed);
        assertEquals(200, leftAfterOneMore("big", global));
    }

    /**
     * 1000 calls, 32 in flight, half of them failing, under a limit that counts failures only: what
     * stays spent is exactly the failures admitted (every success gave its token back).
     */
    @Test
    void underConcurrencyOnlyTheCountedOutcomesStaySpent() throws Exception {
        String key = fresh();
        java.util.concurrent.atomic.AtomicInteger next = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger failures = new java.util.concurrent.atomic.AtomicInteger();
        run(1000, 32, () -> {
            boolean fails = next.getAndIncrement() % 2 == 0;
            Admission a = tollgate()
                    .limiter()
                    .admit(List.of(charge("big", key).counting(dev.tollgate.CountOn.FAILURE)), Duration.ZERO);
            if (a.allowed()) {
                failures.addAndGet(fails ? 1 : 0);
                a.settle(fails);
            }
            return a.allowed();
        });
        assertTrue(failures.get() > 0);
        long left = 300 - failures.get();
        Decision d = tollgate().limiter().check(tollgate().limit("big"), key);
        if (left == 0) {
            assertFalse(d.allowed(), "300 failures spent it all");
        } else {
            assertEquals(left - 1, d.remaining(), failures.get() + " failures stayed spent");
        }
    }

    private int admitted(String key, int calls, int inFlight, String... limits) throws Exception {
        return run(calls, inFlight, () -> admit(key, limits).allowed());
    }

    private static int run(int calls, int inFlight, java.util.concurrent.Callable<Boolean> call) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        Semaphore slots = new Semaphore(inFlight);
        try {
            List<Future<Boolean>> results = new ArrayList<>(calls);
            for (int i = 0; i < calls; i++) {
                slots.acquire();
                results.add(pool.submit(() -> {
                    try {
                        return call.call();
                    } finally {
                        slots.release();
                    }
                }));
            }
            int passed = 0;
            for (Future<Boolean> f : results) {
                passed += f.get() ? 1 : 0;
            }
            return passed;
        } finally {
            pool.shutdownNow();
        }
    }
}
