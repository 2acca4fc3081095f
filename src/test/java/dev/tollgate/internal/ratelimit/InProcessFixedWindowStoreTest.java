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

class InProcessFixedWindowStoreTest extends FixedWindowStoreContract {

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.FIXED_WINDOW, clock);

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }

    @Test
    void windowsAreAlignedToTheClockAndSayWhenTheyEnd() {
        LimitPolicy p = window(1, Duration.ofSeconds(1));
        String key = freshKey();
        clock.add(300_000);
        assertEquals(Duration.ofMillis(700), store.tryConsume(p, key).resetAfter());
        clock.add(699_999);
        Decision denied = store.tryConsume(p, key);
        assertFalse(denied.allowed());
        assertEquals(Duration.ofNanos(1000), denied.retryAfter());
        clock.add(1);
        assertTrue(store.tryConsume(p, key).allowed());
    }

    @Test
    void clockSteppingBackWithinAWindowKeepsItsCount() {
        LimitPolicy p = window(1, Duration.ofSeconds(1));
        String key = freshKey();
        clock.add(300_000);
        assertEquals(Duration.ofMillis(700), store.tryConsume(p, key).resetAfter());
        clock.add(-200_000);
        assertFalse(store.tryConsume(p, key).allowed(), "the spent window is not forgotten");
    }

    /** Kept, a window an hour ahead would deny everyone for an hour: it is dropped instead. */
    @Test
    void clockSteppingBackFurtherThanAWindowStartsAFreshOne() {
        LimitPolicy p = window(1, Duration.ofSeconds(1));
        String key = freshKey();
        store.tryConsume(p, key);
        clock.add(-3_600_000_000L);
        Decision d = store.tryConsume(p, key);
        assertTrue(d.allowed());
        assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0);
    }
}
