package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.core.MicrosClock;
import java.util.Optional;

/**
 * Limits in this JVM's memory, with the same arithmetic as the Redis scripts, clocked by the injected
 * clock. Limits are per server: two servers behind a balancer each admit the full capacity.
 *
 * <p>Bounded: client keys can be chosen by clients, so a store holds at most {@code maxKeys} keys (a
 * sliding window log counts one more per entry it holds). Beyond that, a key whose state can be
 * forgotten (a full bucket, an ended window) is evicted first, else the least recently used of a
 * sample: a flood of fresh keys can make a client's spent bucket be forgotten, never the heap fill
 * (see {@link ExpiringMap}).
 */
public final class InProcessRateLimitStore implements RateLimitStore {

    /** Keys held at most by default: 100,000, about 18 MB of heap for token buckets (InProcessMemoryTest). */
    public static final int DEFAULT_MAX_KEYS = 100_000;

    private final Kept<?> kept;

    /** Idempotency records, as {@code idempotency.lua}: an admitted call's answer until its window ends. */
    private final ExpiringMap<Record> records;

    private record Record(Decision decision, long expiresAt) {}

    /** Usage ledgers, as {@code usage.lua}. */
    private final InProcessUsage usage;

    private <S> InProcessRateLimitStore(MicrosClock clock, InProcessArithmetic<S> arithmetic, int maxKeys) {
        this.kept =
                new Kept<>(new ExpiringMap<>(clock, arithmetic::expiresAt, maxKeys, arithmetic::weight), arithmetic);
        this.records = new ExpiringMap<>(clock, Record::expiresAt, maxKeys, r -> 1);
        this.usage = new InProcessUsage(clock);
    }

    /** Token buckets, as {@code token-bucket.lua}. */
    public static InProcessRateLimitStore tokenBucket(MicrosClock clock) {
        return of(Algorithm.TOKEN_BUCKET, clock);
    }

    /** Fixed windows, as {@code fixed-window.lua}. */
    public static InProcessRateLimitStore fixedWindow(MicrosClock clock) {
        return of(Algorithm.FIXED_WINDOW, clock);
    }

    /** Sliding window logs, as {@code sliding-window.lua}. */
    public static InProcessRateLimitStore slidingWindow(MicrosClock clock) {
        return of(Algorithm.SLIDING_WINDOW, clock);
    }

    /** {@code algorithm}'s store, holding at most {@link #DEFAULT_MAX_KEYS} keys. */
    public static InProcessRateLimitStore of(Algorithm algorithm, MicrosClock clock) {
        return of(algorithm, clock, DEFAULT_MAX_KEYS);
    }

    /** {@code algorithm}'s store, holding at most {@code maxKeys} keys (a sliding log: plus its entries). */
    public static InProcessRateLimitStore of(Algorithm algorithm, MicrosClock clock, int maxKeys) {
        InProcessArithmetic<?> arithmetic =
                switch (algorithm) {
                    case TOKEN_BUCKET -> new TokenBucketArithmetic();
                    case FIXED_WINDOW -> new FixedWindowArithmetic();
                    case SLIDING_WINDOW -> new SlidingWindowArithmetic();
                    case CALENDAR -> new CalendarArithmetic();
                };
        return new InProcessRateLimitStore(clock, arithmetic, maxKeys);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String storeKey) {
        return kept.consume(policy, storeKey);
    }

    @Override
    public Reservation reserve(LimitPolicy policy, String storeKey, java.time.Duration maxWait) {
        return kept.reserve(policy, storeKey, maxWait.toNanos() / 1000);
    }

    @Override
    public boolean forget(String storeKey) {
        return kept.entries().update(storeKey, (live, now) -> new ExpiringMap.Updated<>(null, live != null));
    }

    @Override
    public Spent spend(LimitPolicy policy, String storeKey) {
        return kept.spend(policy, storeKey);
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark) {
        kept.refund(policy, storeKey, mark);
    }

    /**
     * As {@code idempotency.lua}: the record's key is locked while the bucket decides, so a repeat that
     * arrives meanwhile waits for the first attempt's answer.
     */
    @Override
    public Spent spend(LimitPolicy policy, String storeKey, String replay, java.time.Duration window) {
        return records.update(replay, (live, now) -> {
            if (live != null) {
                Decision d = live.decision();
                return new ExpiringMap.Updated<>(live, new Spent(d, 0, true));
            }
            Spent s = kept.spend(policy, storeKey);
            Record kept = s.decision().allowed() ? new Record(s.decision(), now + window.toNanos() / 1000) : null;
            return new ExpiringMap.Updated<>(kept, s);
        });
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark, String replay) {
        if (replay != null) {
            records.update(replay, (live, now) -> new ExpiringMap.Updated<>(null, null));
        }
        kept.refund(policy, storeKey, mark);
    }

    /** As {@code token-bucket-settle.lua} and {@code fixed-window-settle.lua}; a sliding window does not settle. */
    @Override
    public boolean settle(LimitPolicy policy, String storeKey, long mark, long delta) {
        return kept.settle(policy, storeKey, mark, delta);
    }

    /** As the settle scripts: the client's usage day takes what the call cost in the end, its window over or not. */
    @Override
    public boolean settle(LimitPolicy policy, String storeKey, long mark, long delta, UsageLedger ledger) {
        boolean settled = settle(policy, storeKey, mark, delta);
        usage.add(ledger, delta);
        return settled;
    }

    @Override
    public Spent spend(
            LimitPolicy policy, String storeKey, String replay, java.time.Duration window, UsageLedger ledger) {
        Spent s = replay == null ? spend(policy, storeKey) : spend(policy, storeKey, replay, window);
        if (s.decision().allowed() && !s.replayed()) {
            usage.add(ledger, policy.cost());
        }
        return s;
    }

    @Override
    public Reservation reserve(LimitPolicy policy, String storeKey, java.time.Duration maxWait, UsageLedger ledger) {
        Reservation r = reserve(policy, storeKey, maxWait);
        if (r.decision().allowed()) {
            usage.add(ledger, policy.cost());
        }
        return r;
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark, String replay, UsageLedger ledger) {
        refund(policy, storeKey, mark, replay);
        usage.add(ledger, -policy.cost());
    }

    /** The usage ledgers of the limits this store keeps. */
    public InProcessUsage usage() {
        return usage;
    }

    /** Number of keys held, expired or not. */
    public int size() {
        return kept.entries().size();
    }

    /** A key's live state, for tests. */
    Optional<?> state(String storeKey) {
        return kept.entries().get(storeKey);
    }

    @Override
    public void close() {
        kept.entries().clear();
        records.clear();
    }

    private record Kept<S>(ExpiringMap<S> entries, InProcessArithmetic<S> arithmetic) {
        Decision consume(LimitPolicy policy, String key) {
            ExpiringMap.InPlace<S, LimitPolicy, Decision> inPlace = arithmetic.consumeInPlace();
            return inPlace != null
                    ? entries.updateInPlace(key, inPlace, policy)
                    : entries.update(key, (live, now) -> arithmetic.consume(live, policy, now));
        }

        Spent spend(LimitPolicy policy, String key) {
            return arithmetic.consumeInPlace() != null
                    ? new Spent(consume(policy, key), 0)
                    : entries.update(key, (live, now) -> arithmetic.spend(live, policy, now));
        }

        void refund(LimitPolicy policy, String key, long mark) {
            entries.update(key, (live, now) -> new ExpiringMap.Updated<>(arithmetic.refund(live, policy, mark), null));
        }

        boolean settle(LimitPolicy policy, String key, long mark, long delta) {
            return entries.update(key, (live, now) -> arithmetic.settle(live, policy, now, mark, delta));
        }

        Reservation reserve(LimitPolicy policy, String key, long maxWaitMicros) {
            return entries.update(key, (live, now) -> arithmetic.reserve(live, policy, now, maxWaitMicros));
        }
    }
}
