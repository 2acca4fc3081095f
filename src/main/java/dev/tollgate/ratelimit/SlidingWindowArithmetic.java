package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.ExpiringMap;
import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * Sliding window logs in memory, with the same rules as {@code sliding-window.lua}: one entry per
 * admitted unit of cost, dated by the injected clock.
 */
final class SlidingWindowArithmetic implements InProcessArithmetic<SlidingWindowArithmetic.Log> {

    @Override
    public ExpiringMap.Updated<Log, Decision> consume(Log live, LimitPolicy policy, long now) {
        Log log = live == null ? new Log() : live;
        return new ExpiringMap.Updated<>(log, log.consume(policy, now));
    }

    @Override
    public long expiresAt(Log log) {
        return log.expiresAt;
    }

    /** Guarded by the map's per-key lock. */
    static final class Log {
        private final ArrayDeque<Long> stamps = new ArrayDeque<>();
        private long expiresAt;

        /** The time of the newest entry, or -1. */
        long newest() {
            return stamps.isEmpty() ? -1 : stamps.peekLast();
        }

        Decision consume(LimitPolicy p, long now) {
            long window = Math.max(1, p.refillPeriod().toNanos() / 1000);
            while (!stamps.isEmpty() && stamps.peekFirst() <= now - window) {
                stamps.pollFirst();
            }
            long count = stamps.size();
            Decision d;
            if (count + p.cost() > p.capacity()) {
                long retryIn = kth(count + p.cost() - p.capacity()) + window - now;
                d = Decision.ofMicros(false, p.capacity() - count, retryIn, stamps.peekLast() + window - now);
            } else {
                long stamp = stamps.isEmpty() ? now : Math.max(now, stamps.peekLast() + 1);
                for (long i = 0; i < p.cost(); i++) {
                    stamps.addLast(stamp);
                }
                d = Decision.ofMicros(true, p.capacity() - count - p.cost(), 0, stamp + window - now);
            }
            expiresAt = stamps.peekLast() + window;
            return d;
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
