package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;

/**
 * Sliding window logs in memory, with the same rules as {@code sliding-window.lua}: one entry per
 * admitted unit of cost, dated by the injected clock; a capacity and a cost within {@link
 * Algorithm#SLIDING_WINDOW}'s, else {@link ArgumentsRefusedException} (a bug, as the script's refusal).
 */
final class SlidingWindowArithmetic implements InProcessArithmetic<SlidingWindowArithmetic.Log> {

    @Override
    public ExpiringMap.Updated<Log, Decision> consume(Log live, LimitPolicy policy, long now) {
        Algorithm sw = Algorithm.SLIDING_WINDOW;
        if (policy.capacity() > sw.largestCapacity() || policy.cost() > sw.largestCost()) {
            // As sliding-window.lua's own check: only a bug gets here (RateLimiter checks every call first).
            throw new ArgumentsRefusedException(
                    "limit '" + policy.name() + "': a sliding window holds at most " + sw.largestCapacity()
                            + " calls and a call costs at most " + sw.largestCost() + ", but capacity was "
                            + policy.capacity() + " and cost " + policy.cost(),
                    null);
        }
        Log log = live == null ? new Log() : live;
        return new ExpiringMap.Updated<>(log, log.consume(policy, now));
    }

    /** The mark is the admitted call's stamp (0 when denied). */
    @Override
    public ExpiringMap.Updated<Log, Spent> spend(Log live, LimitPolicy policy, long now) {
        ExpiringMap.Updated<Log, Decision> u = consume(live, policy, now);
        long mark = u.answer().allowed() ? u.state().newest() : 0;
        return new ExpiringMap.Updated<>(u.state(), new Spent(u.answer(), mark));
    }

    /** As {@code sliding-window-refund.lua}: the call's own entries go, if they are still there. */
    @Override
    public Log refund(Log live, LimitPolicy policy, long mark) {
        if (live != null) {
            live.stamps.removeAll(mark, policy.cost());
        }
        return live;
    }

    @Override
    public long expiresAt(Log log) {
        return log.expiresAt;
    }

    /** A log takes one place of the bound, plus one per entry. */
    @Override
    public long weight(Log log) {
        return 1 + log.stamps.size();
    }

    /** Guarded by the map's per-key lock. */
    static final class Log {
        private final LongRing stamps = new LongRing();
        private long expiresAt;

        /** The time of the newest entry, or -1. */
        long newest() {
            return stamps.isEmpty() ? -1 : stamps.last();
        }

        Decision consume(LimitPolicy p, long now) {
            long window = p.refillPeriodMicros();
            while (!stamps.isEmpty() && stamps.first() <= now - window) {
                stamps.removeFirst();
            }
            // Entries dated more than a window ahead (the clock stepped back that far) would hold it shut.
            while (!stamps.isEmpty() && stamps.last() > now + window) {
                stamps.removeLast();
            }
            stamps.shrink();
            long count = stamps.size();
            Decision d;
            if (count + p.cost() > p.capacity()) {
                long retryIn = stamps.get((int) (count + p.cost() - p.capacity() - 1)) + window - now;
                d = Decision.ofMicros(false, p.capacity() - count, retryIn, stamps.last() + window - now);
            } else {
                long stamp = stamps.isEmpty() ? now : Math.max(now, stamps.last() + 1);
                for (long i = 0; i < p.cost(); i++) {
                    stamps.addLast(stamp);
                }
                d = Decision.ofMicros(true, p.capacity() - count - p.cost(), 0, stamp + window - now);
            }
            expiresAt = stamps.isEmpty() ? now : stamps.last() + window;
            return d;
        }
    }

    /** A queue of longs in one array: 8 bytes an entry, where a deque of boxed longs costs about 24. */
    static final class LongRing {
        private long[] items = new long[4];
        private int head;
        private int size;

        boolean isEmpty() {
            return size == 0;
        }

        int size() {
            return size;
        }

        long first() {
            return items[head];
        }

        long last() {
            return get(size - 1);
        }

        long get(int i) {
            return items[(head + i) & (items.length - 1)];
        }

        void removeFirst() {
            head = (head + 1) & (items.length - 1);
            size--;
        }

        void removeLast() {
            size--;
        }

        /** Removes at most {@code n} entries equal to {@code v}, keeping the others in order. */
        void removeAll(long v, long n) {
            long[] kept = new long[items.length];
            int k = 0;
            long removed = 0;
            for (int i = 0; i < size; i++) {
                long x = get(i);
                if (x == v && removed < n) {
                    removed++;
                } else {
                    kept[k++] = x;
                }
            }
            items = kept;
            head = 0;
            size = k;
        }

        void addLast(long v) {
            if (size == items.length) {
                resize(items.length * 2);
            }
            items[(head + size) & (items.length - 1)] = v;
            size++;
        }

        /** Gives back memory a log no longer needs: at most a quarter full, the array halves. */
        void shrink() {
            if (items.length > 4 && size <= items.length / 4) {
                resize(items.length / 2);
            }
        }

        private void resize(int length) {
            long[] copy = new long[length];
            for (int i = 0; i < size; i++) {
                copy[i] = get(i);
            }
            items = copy;
            head = 0;
        }
    }
}
