package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Client keys can be chosen by clients ({@code header:<Name>}, {@code @RateKey}): the in-process stores
 * must stay within a bound however many keys arrive, forget what can be forgotten first, and never
 * make one request pay for a sweep of everything.
 */
class InProcessBoundsTest {

    private final ManualClock clock = new ManualClock();

    /** A store key as the limiter makes it: hashed, so keys land anywhere in the table. */
    private static String key(String client) {
        return StoreKeys.DEFAULT.of("bounds", client);
    }

    /** Quotas that never refill were never swept: a flood of fresh keys grew the map without end. */
    @Test
    void floodOfFreshKeysStaysWithinTheDefaultBound() {
        InProcessRateLimitStore store = InProcessRateLimitStore.tokenBucket(clock);
        LimitPolicy quota = LimitPolicy.quota("flood", 3);
        for (int i = 0; i < 120_000; i++) {
            store.tryConsume(quota, key("client-" + i));
        }
        assertTrue(store.size() <= 100_000, "held " + store.size());
    }

    /**
     * Half the table turns full at once, then a flood of new keys: the full buckets go first (chosen
     * from samples, as Redis's LRU does, so nearly all: at most a few spent ones may go).
     */
    @Test
    void fullBucketsAreEvictedBeforeSpentOnes() {
        InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.TOKEN_BUCKET, clock, 100);
        LimitPolicy quota = LimitPolicy.quota("spent", 1);
        LimitPolicy refilling = LimitPolicy.of("refilling", 1, 1, Duration.ofSeconds(1));
        for (int i = 0; i < 50; i++) {
            store.tryConsume(quota, key("spent-" + i));
            store.tryConsume(refilling, key("refilling-" + i));
        }
        clock.elapse(Duration.ofSeconds(3)); // the refilling buckets are full again: forgettable
        for (int i = 0; i < 50; i++) {
            store.tryConsume(refilling, key("new-" + i));
        }
        assertEquals(100, store.size());
        int kept = 0;
        int fullKept = 0;
        for (int i = 0; i < 50; i++) {
            kept += store.state(key("spent-" + i)).isPresent() ? 1 : 0;
            fullKept += store.state(key("refilling-" + i)).isPresent() ? 1 : 0;
        }
        System.out.printf("full first: %d of 50 spent buckets kept, %d of 50 full ones%n", kept, fullKept);
        assertTrue(kept >= 47 && fullKept <= 3, kept + " spent kept, " + fullKept + " full kept");
    }

    @Test
    void withNothingForgettableTheLeastRecentlyUsedGo() {
        InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.FIXED_WINDOW, clock, 100);
        LimitPolicy daily = new LimitPolicy("daily", 1, 1, Duration.ofDays(1), 1);
        for (int i = 0; i < 100; i++) {
            store.tryConsume(daily, key("key-" + i));
            clock.elapse(Duration.ofMillis(1));
        }
        for (int i = 50; i < 100; i++) {
            store.tryConsume(daily, key("key-" + i)); // used again, recently
        }
        for (int i = 0; i < 20; i++) {
            store.tryConsume(daily, key("fresh-" + i));
        }
        assertTrue(store.size() <= 100, "held " + store.size());
        for (int i = 50; i < 100; i++) {
            assertTrue(store.state(key("key-" + i)).isPresent(), "key-" + i + " was used recently and kept");
        }
    }

    /** The sweep ran over the whole map on every 4096th request; now each call looks at two keys. */
    @Test
    void forgettableEntriesAreSweptAFewPerCall() {
        InProcessRateLimitStore store = InProcessRateLimitStore.tokenBucket(clock);
        LimitPolicy p = LimitPolicy.of("sweep", 2, 1, Duration.ofSeconds(1));
        for (int i = 0; i < 1000; i++) {
            store.tryConsume(p, key("client-" + i));
        }
        clock.elapse(Duration.ofSeconds(5));
        int calls = 0;
        while (store.size() > 1 && calls < 1000) {
            store.tryConsume(p, key("steady"));
            calls++;
        }
        assertEquals(1, store.size(), "only the steady client's bucket is left");
        assertTrue(calls <= 520, "a thousand forgettable buckets swept within " + calls + " calls");
    }

    @Test
    void slidingLogsAreBoundedByTheirEntries() {
        InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.SLIDING_WINDOW, clock, 1000);
        LimitPolicy p = new LimitPolicy("log", 100, 100, Duration.ofHours(1), 100);
        for (int i = 0; i < 100; i++) {
            assertTrue(store.tryConsume(p, key("client-" + i)).allowed());
        }
        assertTrue(store.size() <= 10, "100 entries and a key each: at most 9 logs in 1000, held " + store.size());
    }
}
