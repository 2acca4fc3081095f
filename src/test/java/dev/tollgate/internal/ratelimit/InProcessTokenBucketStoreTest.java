package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InProcessTokenBucketStoreTest extends TokenBucketStoreContract {

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.TOKEN_BUCKET, clock);

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }

    @Test
    void clockGoingBackwardsWithinARefillMintsNothing() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        clock.add(-1_500_000);
        assertFalse(store.tryConsume(p, key).allowed());
        clock.add(1_500_000 + 999_999);
        assertFalse(store.tryConsume(p, key).allowed(), "the interval before the jump is not credited twice");
        clock.add(1);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    /** Held to the later instant, a clock that stepped back an hour would lock a 2-second bucket for an hour. */
    @Test
    void clockGoingBackwardsFurtherThanAWholeRefillRefillsFromNow() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        clock.add(-3_600_000_000L);
        Decision d = store.tryConsume(p, key);
        assertFalse(d.allowed());
        assertEquals(Duration.ofSeconds(1), d.retryAfter());
        clock.add(1_000_000);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    @Test
    void bucketIsForgottenOnceItWouldBeFullAgain() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        Decision d = store.tryConsume(p, key);
        assertEquals(Duration.ofSeconds(1), d.resetAfter());
        clock.add(2_000_001);
        assertEquals(2, store.tryConsume(p, key).remaining() + 1, "expired: a full bucket again");
        store.tryConsume(p, freshKey());
        clock.add(2_000_001);
        store.tryConsume(p, freshKey());
        store.tryConsume(p, freshKey());
        assertEquals(2, store.size(), "the two full buckets were swept by the next calls, a few keys a call");
    }
}
