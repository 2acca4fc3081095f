package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sliding window logs in this JVM's memory, with the same rules as {@code sliding-window.lua}: one
 * entry per admitted unit of cost, dated by the injected clock. Limits are per server.
 */
public final class InProcessSlidingWindowStore implements RateLimitStore {

    private static final int SWEEP_EVERY = 4096;

    private final ConcurrentHashMap<String, Log> logs = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final MicrosClock clock;

    public InProcessSlidingWindowStore(MicrosClock clock) {
        this.clock = clock;
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        long now = clock.nowMicros();
        long window = Math.max(1, policy.refillPeriod().toNanos() / 1000);
        if (calls.incrementAndGet() % SWEEP_EVERY == 0) {
            logs.values().removeIf(l -> l.emptyAt(now, window));
        }
        Decision[] out = new Decision[1];
        logs.compute(bucketKey, (k, l) -> {
            Log log = l == null ? new Log() : l;
            out[0] = log.consume(policy, now, window);
            return log;
        });
        return out[0];
    }

    /** The time of the newest entry under {@code bucketKey}, or -1; for tests. */
    long newestEntry(String bucketKey) {
        Log log = logs.get(bucketKey);
        return log == null || log.stamps.isEmpty() ? -1 : log.stamps.peekLast();
    }

    @Override
    public void close() {
        logs.clear();
    }

    /** Guarded by the map's per-key lock in {@code compute}. */
    private static final class Log {
        private final ArrayDeque<Long> stamps = new ArrayDeque<>();

        boolean emptyAt(long now, long window) {
            return stamps.isEmpty() || stamps.peekLast() <= now - window;
        }

        Decision consume(LimitPolicy p, long now, long window) {
            while (!stamps.isEmpty() && stamps.peekFirst() <= now - window) {
                stamps.pollFirst();
            }
            long count = stamps.size();
            if (count + p.cost() > p.capacity()) {
                long retryIn = kth(count + p.cost() - p.capacity()) + window - now;
                return Decision.ofMicros(false, p.capacity() - count, retryIn, stamps.peekLast() + window - now);
            }
            long stamp = stamps.isEmpty() ? now : Math.max(now, stamps.peekLast() + 1);
            for (long i = 0; i < p.cost(); i++) {
                stamps.addLast(stamp);
            }
            return Decision.ofMicros(true, p.capacity() - count - p.cost(), 0, stamp + window - now);
        }

        /** The time of the k-th oldest entry, counting from 1. */
        private long kth(long k) {
            Iterator<Long> it = stamps.iterator();
            long s = it.next();
            for (long i = 1; i < k; i++) {
                s = it.next();
            }
            return s;
        }
    }
}
