package dev.tollgate.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.LimitPolicy;
import dev.tollgate.core.RateLimitStore;
import dev.tollgate.core.SlidingWindowStoreContract;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class InProcessSlidingWindowStoreTest extends SlidingWindowStoreContract {

    private final AtomicLong clock = new AtomicLong(1_700_000_000_000_000L);
    private final InProcessSlidingWindowStore store = new InProcessSlidingWindowStore(clock::get);

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

    @Override
    protected long newestEntryMicros(String key) {
        return store.newestEntry(key);
    }

    @Test
    void callsInTheSameMicrosecondGetDistinctLaterTimes() {
        LimitPolicy p = window(5, Duration.ofSeconds(1));
        String key = freshKey();
        store.tryConsume(p, key);
        store.tryConsume(p, key);
        assertEquals(clock.get() + 1, store.newestEntry(key));
    }
}
