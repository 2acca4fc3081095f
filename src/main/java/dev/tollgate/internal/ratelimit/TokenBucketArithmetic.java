package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;

/** Token buckets in memory, with the same arithmetic as {@code token-bucket.lua}. */
final class TokenBucketArithmetic implements InProcessArithmetic<TokenBucketArithmetic.Bucket> {

    /** A bucket is changed in place: a check of a key held makes nothing but its decision. */
    private static final ExpiringMap.InPlace<Bucket, LimitPolicy, Decision> CONSUME = new ExpiringMap.InPlace<>() {
        @Override
        public Bucket fresh(LimitPolicy policy, long now) {
            return new Bucket(policy.capacity(), now);
        }

        @Override
        public Decision apply(Bucket bucket, LimitPolicy policy, long now) {
            return bucket.consume(policy, now);
        }
    };

    @Override
    public ExpiringMap.Updated<Bucket, Decision> consume(Bucket live, LimitPolicy policy, long now) {
        Bucket bucket = live == null ? CONSUME.fresh(policy, now) : live;
        return new ExpiringMap.Updated<>(bucket, CONSUME.apply(bucket, policy, now));
    }

    @Override
    public ExpiringMap.InPlace<Bucket, LimitPolicy, Decision> consumeInPlace() {
        return CONSUME;
    }

    @Override
    public ExpiringMap.Updated<Bucket, Reservation> reserve(
            Bucket live, LimitPolicy policy, long now, long maxWaitMicros) {
        Bucket bucket = live == null ? new Bucket(policy.capacity(), now) : live;
        return new ExpiringMap.Updated<>(bucket, bucket.reserve(policy, now, maxWaitMicros));
    }

    /** As {@code token-bucket-refund.lua}: the tokens come back as of the bucket's own instant, never above capacity. */
    @Override
    public Bucket refund(Bucket live, LimitPolicy policy, long mark) {
        if (live != null) {
            live.tokens = Math.min(policy.capacity(), live.tokens + policy.cost());
        }
        return live;
    }

    /** As {@code token-bucket-settle.lua}: refilled to now, then {@code delta} taken, into debt if need be. */
    @Override
    public ExpiringMap.Updated<Bucket, Boolean> settle(
            Bucket live, LimitPolicy policy, long now, long mark, long delta) {
        Bucket bucket = live == null ? new Bucket(policy.capacity(), now) : live;
        bucket.settle(policy, now, delta);
        return new ExpiringMap.Updated<>(bucket, true);
    }

    @Override
    public long expiresAt(Bucket bucket) {
        return bucket.expiresAt;
    }

    /** Guarded by the map's per-key lock. */
    static final class Bucket {
        private double tokens;
        private long ts;
        private long expiresAt = Long.MAX_VALUE;
        /** The last instant a waiting call reserved: state up to it is owed, not rebased. */
        private long reservedUntil = Long.MIN_VALUE;

        Bucket(long capacity, long now) {
            this.tokens = capacity;
            this.ts = now;
        }

        Decision consume(LimitPolicy p, long now) {
            double period = p.refillPeriodMicros();
            double t = tokens;
            long stamp = ts;
            // State dated further ahead than a whole refill (the clock stepped back that far) would lock
            // the bucket: it refills from now, and is kept so even when this call is denied. State that
            // waiting calls moved ahead is owed to them, and stays.
            boolean rebased = rebases(p, stamp, now, period);
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
            expiresAt = fullIn < 0 ? Long.MAX_VALUE : now + fullIn + 1_000_000;
            return Decision.ofMicros(allowed, (long) Math.floor(t), retryIn, fullIn);
        }

        void settle(LimitPolicy p, long now, long delta) {
            double period = p.refillPeriodMicros();
            if (now > ts) {
                tokens = Math.min(p.capacity(), tokens + (now - ts) * (double) p.refillTokens() / period);
                ts = now;
            }
            tokens = Math.max(-LimitPolicy.MAX_COUNT, Math.min(p.capacity(), tokens - delta));
            long fullIn = until(tokens, p.capacity(), p, period, ts - now);
            expiresAt = fullIn < 0 ? Long.MAX_VALUE : now + fullIn + 1_000_000;
        }

        /** As {@code token-bucket-reserve.lua}: take now, or reserve the tokens that refill within maxWait. */
        Reservation reserve(LimitPolicy p, long now, long maxWait) {
            double period = p.refillPeriodMicros();
            double t = tokens;
            long stamp = ts;
            boolean rebased = rebases(p, stamp, now, period);
            if (rebased) {
                stamp = now;
            }
            if (now > stamp) {
                t += (now - stamp) * (double) p.refillTokens() / period;
                stamp = now;
            }
            t = Math.min(p.capacity(), t);
            boolean allowed = false;
            boolean reserving = false;
            long wait = 0;
            if (t >= p.cost()) {
                t -= p.cost();
                allowed = true;
                wait = stamp - now;
            } else if (p.refills()) {
                long at = stamp + (long) Math.ceil((p.cost() - t) * period / p.refillTokens());
                if (at - now <= maxWait) {
                    t = Math.max(0, t + (at - stamp) * (double) p.refillTokens() / period - p.cost());
                    stamp = at;
                    allowed = true;
                    reserving = true;
                    wait = at - now;
                }
            }
            if (allowed || rebased) {
                tokens = t;
                ts = stamp;
            }
            if (reserving) {
                reservedUntil = stamp;
            }
            long ahead = stamp - now;
            long fullIn = t >= p.capacity() ? ahead : until(t, p.capacity(), p, period, ahead);
            if (!allowed) {
                wait = until(t, p.cost(), p, period, ahead);
            }
            expiresAt = fullIn < 0 ? Long.MAX_VALUE : now + fullIn + 1_000_000;
            return Reservation.ofMicros(allowed, (long) Math.floor(t), wait, fullIn);
        }

        private boolean rebases(LimitPolicy p, long stamp, long now, double period) {
            // stamp > now first: the division's quotient is positive, so it decides only for state dated ahead.
            return p.refills()
                    && stamp > now
                    && stamp - now > p.capacity() * period / p.refillTokens()
                    && stamp > reservedUntil;
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
