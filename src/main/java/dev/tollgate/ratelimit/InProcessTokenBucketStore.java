package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.MicrosClock;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Token buckets in this JVM's memory, with the same arithmetic as {@code token-bucket.lua}. Limits are
 * per server: two servers behind a balancer each admit the full capacity.
 */
public final class InProcessTokenBucketStore implements RateLimitStore {

    private static final int SWEEP_EVERY = 4096;

    private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong calls = new AtomicLong();
    private final MicrosClock clock;

    public InProcessTokenBucketStore(MicrosClock clock) {
        this.clock = clock;
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String bucketKey) {
        long now = clock.nowMicros();
        if (calls.incrementAndGet() % SWEEP_EVERY == 0) {
            buckets.values().removeIf(b -> b.expired(now));
        }
        Decision[] out = new Decision[1];
        buckets.compute(bucketKey, (k, b) -> {
            Bucket bucket = b == null || b.expired(now) ? new Bucket(policy.capacity(), now) : b;
            out[0] = bucket.consume(policy, now);
            return bucket;
        });
        return out[0];
    }

    /** Number of buckets held, expired or not. */
    public int size() {
        return buckets.size();
    }

    @Override
    public void close() {
        buckets.clear();
    }

    /** Guarded by the map's per-key lock in {@code compute}. */
    private static final class Bucket {
        private double tokens;
        private long ts;
        private long expiresAt = Long.MAX_VALUE;

        Bucket(long capacity, long now) {
            this.tokens = capacity;
            this.ts = now;
        }

        boolean expired(long now) {
            return now >= expiresAt;
        }

        Decision consume(LimitPolicy p, long now) {
            double period = Math.max(1, p.refillPeriod().toNanos() / 1000);
            double t = tokens;
            long stamp = ts;
            if (now > stamp) {
                t += (now - stamp) * (double) p.refillTokens() / period;
                stamp = now;
            }
            t = Math.min(p.capacity(), t);
            boolean allowed = t >= p.cost();
            if (allowed) {
                t -= p.cost();
                tokens = t;
                ts = stamp;
            }
            // The state is as of stamp, which is later than now when the clock went backwards.
            long ahead = stamp - now;
            long fullIn = until(t, p.capacity(), p, period, ahead);
            long retryIn = allowed ? 0 : until(t, p.cost(), p, period, ahead);
            expiresAt = fullIn < 0 ? Long.MAX_VALUE : now + fullIn + 1_000_000;
            return Decision.ofMicros(allowed, (long) Math.floor(t), retryIn, fullIn);
        }

        private static long until(double t, long n, LimitPolicy p, double period, long ahead) {
            if (t >= n) {
                return 0;
            }
            if (!p.refills()) {
                return -1;
            }
            return ahead + (long) Math.ceil((n - t) * period / p.refillTokens());
        }
    }
}
