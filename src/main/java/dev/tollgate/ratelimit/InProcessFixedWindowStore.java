package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;

/**
 * Fixed windows in this JVM's memory, with the same arithmetic as {@code fixed-window.lua}. Limits are
 * per server. At most {@code maxKeys} windows are held (see {@link InProcessTable}).
 */
public final class InProcessFixedWindowStore implements RateLimitStore {

    private final InProcessTable<Window> windows;
    private final MicrosClock clock;

    public InProcessFixedWindowStore(MicrosClock clock) {
        this(clock, InProcessTokenBucketStore.DEFAULT_MAX_KEYS);
    }

    /** @param maxKeys the most windows held at once; beyond it, ended ones are evicted first */
    public InProcessFixedWindowStore(MicrosClock clock, int maxKeys) {
        this.clock = clock;
        this.windows = new InProcessTable<>(maxKeys);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        long now = clock.nowMicros();
        long length = policy.refillPeriodMicros();
        Decision[] out = new Decision[1];
        windows.update(bucketKey, now, w -> {
            // As in the script: a stored window stays current until it ends, unless it ends more than
            // one window from now (a shortened window, a clock that stepped back that far).
            Window current = w == null || w.endsAt <= now || w.endsAt - now > length
                    ? new Window(0, (Math.floorDiv(now, length) + 1) * length, now)
                    : new Window(w.spent, w.endsAt, now);
            long endsIn = current.endsAt - now;
            if (current.spent + policy.cost() > policy.capacity()) {
                out[0] = Decision.ofMicros(false, policy.capacity() - current.spent, endsIn, endsIn);
                return current;
            }
            Window spent = new Window(current.spent + policy.cost(), current.endsAt, now);
            out[0] = Decision.ofMicros(true, policy.capacity() - spent.spent, 0, endsIn);
            return spent;
        });
        return out[0];
    }

    /** Number of windows held, ended or not. */
    public int size() {
        return windows.size();
    }

    /** Whether state is held for {@code bucketKey}; for tests. */
    boolean holds(String bucketKey) {
        return windows.get(bucketKey) != null;
    }

    @Override
    public void close() {
        windows.clear();
    }

    private record Window(long spent, long endsAt, long lastUsed) implements InProcessTable.State {
        @Override
        public long forgettableAt() {
            return endsAt;
        }
    }
}
