package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * The in-process stores settle as {@code token-bucket-settle.lua} and {@code fixed-window-settle.lua}
 * do (RedisSettledCostTest): an estimate of 1,000 settled at 1,342 leaves 1,342 spent, at 200 leaves
 * 200; a bucket goes into debt; a window settles only while it is the call's own.
 */
class InProcessSettledCostTest {

    private final ManualClock clock = new ManualClock();

    private static final LimitPolicy TOKENS = LimitPolicy.quota("tokens", 10000).withCost(1000);
    private static final LimitPolicy SMALL = LimitPolicy.quota("small", 1000).withCost(1000);

    @Test
    void aTokenBucketSettlesAtTheActualCost() {
        InProcessRateLimitStore store = InProcessRateLimitStore.tokenBucket(clock);
        Spent more = store.spend(TOKENS, "more");
        assertTrue(store.settle(TOKENS, "more", more.mark(), 1342 - 1000));
        assertEquals(
                10000 - 1342 - 1, store.tryConsume(TOKENS.withCost(1), "more").remaining());
        Spent less = store.spend(TOKENS, "less");
        assertTrue(store.settle(TOKENS, "less", less.mark(), 200 - 1000));
        assertEquals(
                10000 - 200 - 1, store.tryConsume(TOKENS.withCost(1), "less").remaining());
    }

    /** Charged past what it holds, the bucket owes: denied until the debt has refilled. */
    @Test
    void theExcessGoesIntoDebtAndRefillsFromThere() {
        InProcessRateLimitStore store = InProcessRateLimitStore.tokenBucket(clock);
        LimitPolicy refilling =
                LimitPolicy.of("small", 1000, 1000, Duration.ofSeconds(1)).withCost(1000);
        Spent s = store.spend(refilling, "k");
        assertTrue(store.settle(refilling, "k", s.mark(), 342));
        assertFalse(store.tryConsume(refilling.withCost(1), "k").allowed());
        clock.add(342_000 + 1_000);
        assertTrue(store.tryConsume(refilling.withCost(1), "k").allowed(), "342 owed, back after 0.342 s");
    }

    @Test
    void aFixedWindowAndACalendarQuotaSettleTheirCount() {
        LimitPolicy month = LimitPolicy.calendar(
                        "month", 10000, new CalendarPeriod(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin"), 15))
                .withCost(1000);
        LimitPolicy window = new LimitPolicy("window", 10000, 10000, Duration.ofDays(1), 1000);
        for (var s : new Object[][] {
            {InProcessRateLimitStore.fixedWindow(clock), window},
            {InProcessRateLimitStore.of(Algorithm.CALENDAR, clock), month}
        }) {
            InProcessRateLimitStore store = (InProcessRateLimitStore) s[0];
            LimitPolicy p = (LimitPolicy) s[1];
            Spent more = store.spend(p, "more");
            assertTrue(store.settle(p, "more", more.mark(), 342));
            assertEquals(
                    10000 - 1342 - 1, store.tryConsume(p.withCost(1), "more").remaining(), p.name());
            Spent less = store.spend(p, "less");
            assertTrue(store.settle(p, "less", less.mark(), -800));
            assertEquals(
                    10000 - 200 - 1, store.tryConsume(p.withCost(1), "less").remaining(), p.name());
            assertFalse(store.settle(p, "less", less.mark() + 1, -100), "not the call's window: nothing changes");
        }
    }

    @Test
    void aSlidingWindowDoesNotSettle() {
        InProcessRateLimitStore store = InProcessRateLimitStore.slidingWindow(clock);
        Spent s = store.spend(SMALL, "k");
        assertThrows(UnsupportedOperationException.class, () -> store.settle(SMALL, "k", s.mark(), 1));
    }
}
