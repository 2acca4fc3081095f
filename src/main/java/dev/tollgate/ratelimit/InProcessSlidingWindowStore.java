package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;

/**
 * Sliding window logs in this JVM's memory, with the same rules as {@code sliding-window.lua}: one
 * entry per admitted unit of cost, dated by the injected clock. Limits are per server. The logs hold
 * at most {@code maxEntries} entries together (each key counts one more; see {@link InProcessTable}).
 */
public final class InProcessSlidingWindowStore implements RateLimitStore {

    private final InProcessTable<Log> logs;
    private final MicrosClock clock;

    public InProcessSlidingWindowStore(MicrosClock clock) {
        this(clock, InProcessTokenBucketStore.DEFAULT_MAX_KEYS);
    }

    /** @param maxEntries the most entries (plus one per key) held at once; beyond it, empty logs go first */
    public InProcessSlidingWindowStore(MicrosClock clock, int maxEntries) {
        this.clock = clock;
        this.logs = new InProcessTable<>(maxEntries);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        if (policy.capacity() > LimitSpec.MAX_SLIDING_WINDOW_CAPACITY) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': a sliding window holds at most "
                    + LimitSpec.MAX_SLIDING_WINDOW_CAPACITY + " calls, but capacity was " + policy.capacity());
        }
        long now = clock.nowMicros();
        long window = policy.refillPeriodMicros();
        Decision[] out = new Decision[1];
        logs.update(bucketKey, now, l -> {
            Log log = l == null ? new Log() : l;
            out[0] = log.consume(policy, now, window);
            return log;
        });
        return out[0];
    }

    /** The time of the newest entry under {@code bucketKey}, or -1; for tests. */
    long newestEntry(String bucketKey) {
        Log log = logs.get(bucketKey);
        return log == null || log.stamps.isEmpty() ? -1 : log.stamps.last();
    }

    /** Number of logs held, empty or not. */
    public int size() {
        return logs.size();
    }

    @Override
    public void close() {
        logs.clear();
    }

    /** Guarded by the table's per-key lock. */
    private static final class Log implements InProcessTable.State {
        private final LongRing stamps = new LongRing();
        private long lastUsed;
        private long forgettableAt = Long.MAX_VALUE;

        @Override
        public long forgettableAt() {
            return forgettableAt;
        }

        @Override
        public long lastUsed() {
            return lastUsed;
        }

        @Override
        public long weight() {
            return 1 + stamps.size();
        }

        Decision consume(LimitPolicy p, long now, long window) {
            lastUsed = now;
            while (!stamps.isEmpty() && stamps.first() <= now - window) {
                stamps.removeFirst();
            }
            // Entries dated more than a window ahead (the clock stepped back that far) would hold it shut.
            while (!stamps.isEmpty() && stamps.last() > now + window) {
                stamps.removeLast();
            }
            stamps.shrink();
            long count = stamps.size();
            if (count + p.cost() > p.capacity()) {
                long retryIn = stamps.get((int) (count + p.cost() - p.capacity() - 1)) + window - now;
                forgettableAt = stamps.last() + window;
                return Decision.ofMicros(false, p.capacity() - count, retryIn, stamps.last() + window - now);
            }
            long stamp = stamps.isEmpty() ? now : Math.max(now, stamps.last() + 1);
            for (long i = 0; i < p.cost(); i++) {
                stamps.addLast(stamp);
            }
            forgettableAt = stamp + window;
            return Decision.ofMicros(true, p.capacity() - count - p.cost(), 0, stamp + window - now);
        }
    }

    /** A queue of longs in one array: 8 bytes an entry, where a deque of boxed longs costs about 24. */
    private static final class LongRing {
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

        /** Gives back memory a log no longer needs: a quarter full at most, the array halves. */
        void shrink() {
            if (items.length > 4 && size <= items.length / 4) {
                long[] smaller = new long[items.length / 2];
                for (int i = 0; i < size; i++) {
                    smaller[i] = get(i);
                }
                items = smaller;
                head = 0;
            }
        }

        void addLast(long v) {
            if (size == items.length) {
                long[] bigger = new long[items.length * 2];
                for (int i = 0; i < size; i++) {
                    bigger[i] = get(i);
                }
                items = bigger;
                head = 0;
            }
            items[(head + size) & (items.length - 1)] = v;
            size++;
        }
    }
}
