package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;

/**
 * Token buckets in this JVM's memory, with the same arithmetic as {@code token-bucket.lua}. Limits are
 * per server: two servers behind a balancer each admit the full capacity. At most {@code maxKeys}
 * buckets are held (see {@link InProcessTable}).
 */
public final class InProcessTokenBucketStore implements RateLimitStore {

    /** Buckets held at most by default: about 20 MB of heap (measured in InProcessMemoryTest). */
    public static final int DEFAULT_MAX_KEYS = 100_000;

    private final InProcessTable<Bucket> buckets;
    private final MicrosClock clock;

    public InProcessTokenBucketStore(MicrosClock clock) {
        this(clock, DEFAULT_MAX_KEYS);
    }

    /** @param maxKeys the most buckets held at once; beyond it, full ones are evicted first */
    public InProcessTokenBucketStore(MicrosClock clock, int maxKeys) {
        this.clock = clock;
        this.buckets = new InProcessTable<>(maxKeys);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        long now = clock.nowMicros();
        Decision[] out = new Decision[1];
        buckets.update(bucketKey, now, b -> {
            Bucket bucket = b == null ? new Bucket(policy.capacity(), now) : b;
            out[0] = bucket.consume(policy, now);
            return bucket;
        });
        return out[0];
    }

    /** Number of buckets held, full or not. */
    public int size() {
        return buckets.size();
    }

    /** Whether state is held for {@code bucketKey}; for tests. */
    boolean holds(String bucketKey) {
        return buckets.get(bucketKey) != null;
    }

    @Override
    public void close() {
        buckets.clear();
    }

    /** Guarded by the table's per-key lock. */
    private static final class Bucket implements InProcessTable.State {
        private double tokens;
        private long ts;
        private long lastUsed;
        private long forgettableAt = Long.MAX_VALUE;

        Bucket(long capacity, long now) {
            this.tokens = capacity;
            this.ts = now;
        }

        @Override
        public long forgettableAt() {
            return forgettableAt;
        }

        @Override
        public long lastUsed() {
            return lastUsed;
        }

        Decision consume(LimitPolicy p, long now) {
            lastUsed = now;
            double period = p.refillPeriodMicros();
            double t = tokens;
            long stamp = ts;
            // State dated further ahead than a whole refill (the clock stepped back that far) refills from
            // now, and is written so even when this call is denied.
            boolean rebased = p.refills() && stamp - now > p.capacity() * period / p.refillTokens();
            if (rebased) {
                stamp = now;
            }
            if (now > stamp) {
                t += (now - stamp) * (double) p.refillTokens() / period;
                stamp = now;
            }
            t = Math.min(p.capacity(), t);
            boolean allowed = t >= p.cost();
            if (allowed) {
                t -= p.cost();
            }
            if (allowed || rebased) {
                tokens = t;
                ts = stamp;
            }
            // The state is as of stamp, which is later than now when the clock went backwards.
            long ahead = stamp - now;
            long fullIn = until(t, p.capacity(), p, period, ahead);
            long retryIn = allowed ? 0 : until(t, p.cost(), p, period, ahead);
            forgettableAt = fullIn < 0 ? Long.MAX_VALUE : now + fullIn + 1_000_000;
            return Decision.ofMicros(allowed, (long) Math.floor(t), retryIn, fullIn);
        }

        private static long until(double t, long n, LimitPolicy p, double period, long ahead) {
            if (t >= n) {
                return 0;
            }
            if (!p.refills()) {
                return -1;
            }
            return (long) Math.min(LimitPolicy.MAX_COUNT, ahead + Math.ceil((n - t) * period / p.refillTokens()));
        }
    }
}
