package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What every token-bucket store must do, asserted exactly. A store's test extends this and says how
 * to read and advance the store's own clock (Redis {@code TIME}, or a test clock).
 */
public abstract class TokenBucketStoreContract extends StoreContract {

    @Test
    void fullBucketAdmitsItsCapacityThenDenies() {
        LimitPolicy p = LimitPolicy.quota("contract", 5);
        String key = freshKey();
        for (int i = 4; i >= 0; i--) {
            Decision d = store().tryConsume(p, key);
            assertTrue(d.allowed());
            assertEquals(i, d.remaining());
        }
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(0, denied.remaining());
        assertEquals(Decision.NEVER, denied.retryAfter(), "a quota that never refills never lets a retry pass");
        assertFalse(denied.degraded());
    }

    @Test
    void costSpendsSeveralTokensAndDenialSpendsNone() {
        LimitPolicy p = LimitPolicy.quota("contract", 10).withCost(3);
        String key = freshKey();
        assertEquals(7, store().tryConsume(p, key).remaining());
        assertEquals(4, store().tryConsume(p, key).remaining());
        assertEquals(1, store().tryConsume(p, key).remaining());
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(1, denied.remaining());
        Decision last = store().tryConsume(p.withCost(1), key);
        assertTrue(last.allowed(), "the denial kept the last token");
        assertEquals(0, last.remaining());
    }

    @ParameterizedTest(name = "{0} in flight")
    @ValueSource(ints = {1, 2, 8, 32})
    void admitsExactlyTheCapacityWhateverTheConcurrency(int inFlight) throws Exception {
        LimitPolicy p = LimitPolicy.quota("contract", 100);
        for (int trial = 0; trial < 5; trial++) {
            assertEquals(100, admitted(p, freshKey(), 1000, inFlight), "trial " + trial);
        }
    }

    @Test
    void refillsAtTheConfiguredRate() throws Exception {
        // One token every 20 ms, from exactly 0. The instant the bucket was emptied is known to lie within
        // [before, after] of that call, and likewise the instant of the check, so the tokens it may
        // find are bounded on both sides by the store's own clock.
        LimitPolicy p = new LimitPolicy("contract", 10, 1, Duration.ofMillis(20), 1);
        String key = freshKey();
        long writeFrom = nowMicros();
        assertEquals(0, store().tryConsume(p.withCost(10), key).remaining(), "a fresh bucket emptied in one call");
        long writeTo = nowMicros();
        elapse(Duration.ofMillis(70));
        long checkFrom = nowMicros();
        Decision d = store().tryConsume(p, key);
        long checkTo = nowMicros();
        long fewest = Math.min(10, (checkFrom - writeTo) / 20_000);
        long most = Math.min(10, (checkTo - writeFrom) / 20_000);
        assertTrue(fewest >= 3, "waited 70 ms, so at least 3 tokens came back");
        assertTrue(d.allowed());
        assertTrue(
                d.remaining() >= fewest - 1 && d.remaining() <= most - 1,
                "remaining " + d.remaining() + " not in [" + (fewest - 1) + ", " + (most - 1) + "]");
    }

    @Test
    void refillStopsAtTheCapacity() throws Exception {
        LimitPolicy p = new LimitPolicy("contract", 3, 1, Duration.ofMillis(1), 1);
        String key = freshKey();
        assertEquals(2, store().tryConsume(p, key).remaining());
        elapse(Duration.ofMillis(50));
        assertEquals(2, store().tryConsume(p, key).remaining(), "50 ms at 1 token/ms still holds only 3");
    }

    @Test
    void deniedDecisionSaysWhenToRetryAndWhenFull() {
        LimitPolicy p = new LimitPolicy("contract", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store().tryConsume(p, key);
        store().tryConsume(p, key);
        Decision denied = store().tryConsume(p, key);
        assertFalse(denied.allowed());
        assertTrue(
                denied.retryAfter().compareTo(Duration.ZERO) > 0
                        && denied.retryAfter().compareTo(Duration.ofSeconds(1)) <= 0,
                "retry " + denied.retryAfter());
        assertTrue(
                denied.resetAfter().compareTo(Duration.ofSeconds(1)) > 0
                        && denied.resetAfter().compareTo(Duration.ofSeconds(2)) <= 0,
                "reset " + denied.resetAfter());
        long oneTokenMicros = denied.resetAfter().minus(denied.retryAfter()).toNanos() / 1000;
        assertTrue(Math.abs(oneTokenMicros - 1_000_000) <= 1, "one more token takes one period (to the rounded us)");
    }

    @Test
    void bucketsOfDifferentKeysAreIndependent() {
        LimitPolicy p = LimitPolicy.quota("contract", 1);
        String a = freshKey();
        String b = freshKey();
        assertTrue(store().tryConsume(p, a).allowed());
        assertFalse(store().tryConsume(p, a).allowed());
        assertTrue(store().tryConsume(p, b).allowed());
    }
}
