package dev.tollgate.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.FixedWindowStoreContract;
import dev.tollgate.core.RateLimitStore;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InProcessFixedWindowStoreTest extends FixedWindowStoreContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessFixedWindowStore store = new InProcessFixedWindowStore(clock::get);

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
    void windowsAreAlignedToTheClockAndSayWhenTheyEnd() {
        LimitPolicy p = window(1, Duration.ofSeconds(1));
        String key = freshKey();
        clock.addAndGet(300_000);
        assertEquals(Duration.ofMillis(700), store.tryConsume(p, key).resetAfter());
        clock.addAndGet(699_999);
        Decision denied = store.tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(Duration.ofNanos(1000), denied.retryAfter());
        clock.addAndGet(1);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    @Test
    void clockSteppingBackKeepsTheLaterWindowsCount() {
        LimitPolicy p = window(1, Duration.ofSeconds(1));
        String key = freshKey();
        store.tryConsume(p, key);
        clock.addAndGet(-5_000_000);
        assertFalse(store.tryConsume(p, key).allowed(), "the spent window is not forgotten");
    }
}
