package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class InProcessSlidingWindowStoreTest extends SlidingWindowStoreContract {

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.SLIDING_WINDOW, clock);

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }

    @Override
    protected long newestEntryMicros(String key) {
        return store.state(key)
                .map(s -> ((SlidingWindowArithmetic.Log) s).newest())
                .orElse(-1L);
    }

    @Test
    void callsInTheSameMicrosecondGetDistinctLaterTimes() {
        LimitPolicy p = window(5, Duration.ofSeconds(1));
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        assertEquals(clock.nowMicros() + 1, newestEntryMicros(key));
    }
}
