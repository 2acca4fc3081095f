package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What a token bucket that lets calls wait must do ({@link RateLimitStore#reserve}), on the store's own
 * clock. Limits refill slowly (a token a second) where the test's own running time must not matter.
 */
public abstract class ReservationContract extends StoreContract {

    static final LimitPolicy ONE_PER_SECOND = new LimitPolicy("wait", 1, 1, Duration.ofSeconds(1), 1);

    /**
     * A wait counted from the bucket's first call, asked at a later call: exactly {@code expected} minus the
     * store time between the two calls. {@code firstCallSent} is the store's clock read before the first
     * call; this reads it again after the answer, so the bound is what passed on the store's own clock
     * (nothing on the in-process clock, however slow the machine), never a guess at it.
     */
    void assertWaitFromFirstCall(Duration expected, Duration actual, long firstCallSent) {
        long between = nowMicros() - firstCallSent;
        long expectedMicros = expected.toNanos() / 1000;
        long actualMicros = actual.toNanos() / 1000;
        assertTrue(
                actualMicros <= expectedMicros && actualMicros >= expectedMicros - between,
                "expected " + expected.toMillis() + " ms less the " + between / 1000.0
                        + " ms of store time between the calls (never more), got " + actualMicros / 1000.0 + " ms");
    }

    @Test
    void tokensThatAreThereAreTakenWithoutWaiting() {
        Reservation r = store().reserve(
                        new LimitPolicy("wait", 2, 1, Duration.ofSeconds(1), 1), freshKey(), Duration.ofSeconds(5));
        assertTrue(r.decision().allowed());
        assertEquals(Duration.ZERO, r.delay());
        assertEquals(1, r.decision().remaining());
    }

    @Test
    void missingTokensAreReservedAndEveryLaterCallQueuesBehindThem() {
        String key = freshKey();
        Duration maxWait = Duration.ofSeconds(5);
        long sent = nowMicros();
        assertEquals(
                Duration.ZERO, store().reserve(ONE_PER_SECOND, key, maxWait).delay());
        Reservation second = store().reserve(ONE_PER_SECOND, key, maxWait);
        assertTrue(second.decision().allowed());
        assertEquals(0, second.decision().remaining());
        assertWaitFromFirstCall(Duration.ofSeconds(1), second.delay(), sent);
        Reservation third = store().reserve(ONE_PER_SECOND, key, maxWait);
        assertWaitFromFirstCall(Duration.ofSeconds(2), third.delay(), sent);
        Decision plain = store().tryConsume(ONE_PER_SECOND, key);
        assertFalse(plain.allowed(), "a call that does not wait is not served before the waiters");
        assertWaitFromFirstCall(Duration.ofSeconds(3), plain.retryAfter(), sent);
    }

    @Test
    void aWaitBeyondMaxWaitIsRefusedAtOnceAndReservesNothing() {
        String key = freshKey();
        Duration maxWait = Duration.ofMillis(1500);
        long sent = nowMicros();
        store().reserve(ONE_PER_SECOND, key, maxWait);
        assertWaitFromFirstCall(
                Duration.ofSeconds(1),
                store().reserve(ONE_PER_SECOND, key, maxWait).delay(),
                sent);
        Reservation refused = store().reserve(ONE_PER_SECOND, key, maxWait);
        assertFalse(refused.decision().allowed());
        assertEquals(Duration.ZERO, refused.delay());
        assertWaitFromFirstCall(Duration.ofSeconds(2), refused.decision().retryAfter(), sent);
        assertWaitFromFirstCall(
                Duration.ofSeconds(2),
                store().reserve(ONE_PER_SECOND, key, Duration.ofSeconds(5)).delay(),
                sent);
    }

    @Test
    void theBucketOwesAtMostWhatRefillsWithinMaxWait() {
        LimitPolicy p = new LimitPolicy("wait", 2, 2, Duration.ofSeconds(1), 1);
        String key = freshKey();
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted +=
                    store().reserve(p, key, Duration.ofMillis(1200)).decision().allowed() ? 1 : 0;
        }
        assertEquals(4, admitted, "2 in the bucket, 2 more refilled within 1.2 s (at 0.5 and 1 s)");
    }

    /**
     * A bucket refilled within half a second that owes 1.5 s of reservations: a plain check must not take
     * that state for a clock that stepped back (which it rebases), or the waiters' tokens would be minted again.
     */
    @Test
    void reservationsBeyondAFullRefillAreOwedNotForgotten() {
        LimitPolicy p = new LimitPolicy("wait", 1, 2, Duration.ofSeconds(1), 1);
        String key = freshKey();
        long sent = nowMicros();
        for (int i = 0; i < 4; i++) {
            assertTrue(store().reserve(p, key, Duration.ofSeconds(3)).decision().allowed());
        }
        Decision plain = store().tryConsume(p, key);
        assertFalse(plain.allowed(), "the reservations are owed");
        assertWaitFromFirstCall(Duration.ofSeconds(2), plain.retryAfter(), sent);
        assertWaitFromFirstCall(
                Duration.ofSeconds(2),
                store().reserve(p, key, Duration.ofSeconds(3)).delay(),
                sent);
    }

    @Test
    void reservedTokensArriveWhenTheirTimeComes() throws Exception {
        LimitPolicy p = new LimitPolicy("wait", 1, 1, Duration.ofMillis(200), 1);
        String key = freshKey();
        store().reserve(p, key, Duration.ofSeconds(1));
        store().reserve(p, key, Duration.ofSeconds(1));
        assertFalse(store().tryConsume(p, key).allowed());
        elapse(Duration.ofMillis(420));
        assertTrue(
                store().tryConsume(p, key).allowed(), "the reserved token was owed until 200 ms, the next came at 400");
    }

    @Test
    void aQuotaThatNeverRefillsCannotBeWaitedFor() {
        LimitPolicy quota = LimitPolicy.quota("wait", 1);
        String key = freshKey();
        assertTrue(store().reserve(quota, key, Duration.ofSeconds(5)).decision().allowed());
        Reservation r = store().reserve(quota, key, Duration.ofSeconds(5));
        assertFalse(r.decision().allowed());
        assertEquals(Decision.NEVER, r.decision().retryAfter());
    }

    /**
     * 32 callers at once against one token per 100 ms and a maxWait of a second: 11 reserve (one now,
     * one per 100 ms after; one more per 100 ms the burst itself takes), the others are refused at once,
     * and the bucket owes exactly what was reserved: a call after them all is told to retry when the
     * last reservation is served.
     */
    @Test
    void thirtyTwoCallersAtOnceReserveExactlyWhatTheyWereGiven() throws Exception {
        LimitPolicy p = new LimitPolicy("wait", 1, 10, Duration.ofSeconds(1), 1);
        String key = freshKey();
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Reservation>> callers = new ArrayList<>();
        long began = nowMicros();
        try {
            for (int i = 0; i < 32; i++) {
                callers.add(pool.submit(() -> {
                    start.await();
                    return store().reserve(p, key, Duration.ofSeconds(1));
                }));
            }
            start.countDown();
            int admitted = 0;
            for (Future<Reservation> f : callers) {
                Reservation r = f.get();
                assertTrue(r.delay().compareTo(Duration.ofSeconds(1)) <= 0, "waits at most its maxWait: " + r);
                admitted += r.decision().allowed() ? 1 : 0;
            }
            Decision after = store().tryConsume(p, key);
            long ended = nowMicros();
            // 11 instants lie within a second of the first reservation; a burst that took longer reaches more.
            assertTrue(
                    admitted >= 11 && admitted <= 11 + (ended - began) / 100_000,
                    "admitted " + admitted + " of 32 in a burst of " + (ended - began) / 1000 + " ms");
            assertFalse(after.allowed());
            // Owed: one token per 100 ms from the first reservation on, which was made between began and ended.
            long owedMicros = admitted * 100_000L;
            long retry = after.retryAfter().toNanos() / 1000;
            assertTrue(
                    retry <= owedMicros && retry >= owedMicros - (ended - began),
                    "retry after " + retry / 1000 + " ms for " + admitted + " reservations, " + (ended - began) / 1000
                            + " ms after the burst began");
        } finally {
            pool.shutdownNow();
        }
    }
}
