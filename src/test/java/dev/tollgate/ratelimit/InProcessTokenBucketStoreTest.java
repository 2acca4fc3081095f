package dev.tollgate.ratelimit;

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
    void clockGoingBackwardsMintsNothing() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        clock.add(-10_000_000);
        assertFalse(store.tryConsume(p, key).allowed());
        clock.add(10_000_000 + 999_999);
        assertFalse(store.tryConsume(p, key).allowed(), "the interval before the jump is not credited twice");
        clock.add(1);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    @Test
    void bucketIsForgottenOnceItWouldBeFullAgain() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        Decision d = store.tryConsume(p, key);
        assertEquals(Duration.ofSeconds(1), d.resetAfter());
        clock.add(2_000_001);
        store.tryConsume(p, freshKey());
        assertEquals(2, store.size(), "an expired bucket is only swept in bulk");
        assertEquals(1, store.tryConsume(p, key).remaining(), "expired: a full bucket again");
    }
}
