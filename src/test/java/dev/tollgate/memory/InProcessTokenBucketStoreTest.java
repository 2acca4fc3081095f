package dev.tollgate.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.RateLimitStore;
import dev.tollgate.core.TokenBucketStoreContract;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InProcessTokenBucketStoreTest extends TokenBucketStoreContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessTokenBucketStore store = new InProcessTokenBucketStore(clock::get);

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected long nowMicros() {
        return clock.get();
    }

    @Override
    protected void elapse(Duration d) {
        clock.addAndGet(d.toNanos() / 1000);
    }

    @Test
    void clockGoingBackwardsMintsNothing() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        clock.addAndGet(-10_000_000);
        assertFalse(store.tryConsume(p, key).allowed());
        clock.addAndGet(10_000_000 + 999_999);
        assertFalse(store.tryConsume(p, key).allowed(), "the interval before the jump is not credited twice");
        clock.addAndGet(1);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    @Test
    void bucketIsForgottenOnceItWouldBeFullAgain() {
        LimitPolicy p = new LimitPolicy("mem", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        Decision d = store.tryConsume(p, key);
        assertEquals(Duration.ofSeconds(1), d.resetAfter());
        clock.addAndGet(2_000_001);
        store.tryConsume(p, freshKey());
        assertEquals(2, store.size(), "an expired bucket is only swept in bulk");
        assertEquals(1, store.tryConsume(p, key).remaining(), "expired: a full bucket again");
    }
}
