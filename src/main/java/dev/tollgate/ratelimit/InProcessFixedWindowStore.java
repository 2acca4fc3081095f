package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Fixed windows in this JVM's memory, with the same arithmetic as {@code fixed-window.lua}. Limits are
 * per server.
 */
public final class InProcessFixedWindowStore implements RateLimitStore {

    private static final int SWEEP_EVERY = 4096;

    private final ConcurrentHashMap<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final MicrosClock clock;

    public InProcessFixedWindowStore(MicrosClock clock) {
        this.clock = clock;
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        long now = clock.nowMicros();
        long length = Math.max(1, policy.refillPeriod().toNanos() / 1000);
        if (calls.incrementAndGet() % SWEEP_EVERY == 0) {
            windows.values().removeIf(w -> w.endsAt <= now);
        }
        Decision[] out = new Decision[1];
        windows.compute(bucketKey, (k, w) -> {
            long index = Math.floorDiv(now, length);
            // A stored later window (the clock stepped back) stays current, as in the script.
            Window current = w == null || w.index < index ? new Window(index, 0, (index + 1) * length) : w;
            long endsIn = current.endsAt - now;
            if (current.spent + policy.cost() > policy.capacity()) {
                out[0] = Decision.ofMicros(false, policy.capacity() - current.spent, endsIn, endsIn);
                return current;
            }
            Window spent = new Window(current.index, current.spent + policy.cost(), current.endsAt);
            out[0] = Decision.ofMicros(true, policy.capacity() - spent.spent, 0, endsIn);
            return spent;
        });
        return out[0];
    }

    /** Number of windows held, ended or not. */
    public int size() {
        return windows.size();
    }

    @Override
    public void close() {
        windows.clear();
    }

    private record Window(long index, long spent, long endsAt) {}
}
