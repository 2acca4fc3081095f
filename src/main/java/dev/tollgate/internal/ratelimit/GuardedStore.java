package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

/**
 * The innermost stage: the limit's store, asked through the guard, which bounds how long it may take.
 * Spends the call's cost, or reserves it when the call waits.
 */
final class GuardedStore implements Stage {

    private final Map<Algorithm, RateLimitStore> stores;
    private final Guard guard;

    GuardedStore(Map<Algorithm, RateLimitStore> stores, Guard guard) {
        this.stores = new EnumMap<>(stores);
        this.guard = guard;
    }

    /** @throws StoreUnavailableException when the store cannot be asked within the guard's budget */
    @Override
    public Charged apply(Ask ask) {
        Charge c = ask.charge();
        RateLimitStore store = store(c.limit());
        String key = ask.storeKey();
        if (ask.waits()) {
            UsageLedger ledger = UsageLedger.of(c.limit(), key, c.clientKey());
            Reservation r = guard.call(key, () -> store.reserve(c.spentPolicy(), key, ask.maxWait(), ledger));
            return new Charged(c, r.decision(), 0, r.delay(), r.decision().allowed());
        }
        String replay = ask.replay();
        UsageLedger usage = UsageLedger.of(c.limit(), key, c.clientKey());
        if (replay == null && usage == null && c.limit().algorithm() == Algorithm.TOKEN_BUCKET) {
            // A bucket's tokens are interchangeable: its spend's mark is always 0, so no Spent is made.
            Decision d = consume(store, c.spentPolicy(), key);
            return new Charged(c, d, 0, Duration.ZERO, d.allowed(), null, null, false);
        }
        Spent s = replay == null && usage == null
                ? spend(store, c.spentPolicy(), key)
                : guard.call(
                        key,
                        () -> store.spend(
                                c.spentPolicy(), key, replay, c.limit().idempotencyWindow(), usage));
        return new Charged(
                c,
                s.decision(),
                s.mark(),
                Duration.ZERO,
                s.decision().allowed() && !s.replayed(),
                null,
                replay,
                s.replayed());
    }

    /** A plain check; a store in this JVM ({@link Guard#DIRECT}) is asked on the spot, without a closure per check. */
    private Spent spend(RateLimitStore store, LimitPolicy policy, String key) {
        return guard == Guard.DIRECT ? store.spend(policy, key) : guard.call(key, () -> store.spend(policy, key));
    }

    /** {@link #spend}'s decision alone, for a token bucket. */
    private Decision consume(RateLimitStore store, LimitPolicy policy, String key) {
        return guard == Guard.DIRECT
                ? store.tryConsume(policy, key)
                : guard.call(key, () -> store.tryConsume(policy, key));
    }

    /** Gives {@code c}'s tokens back to the bucket at {@code storeKey}; false when the store cannot be asked. */
    boolean refund(Charged c, String storeKey) {
        RateLimitStore store = store(c.charge().limit());
        try {
            guard.call(storeKey, () -> {
                store.refund(c.charge().spentPolicy(), storeKey, c.mark(), c.replay(), usage(c, storeKey));
                return null;
            });
            return true;
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    /** Whether the limit's store leases tokens ({@link RateLimitStore#leases()}). */
    boolean leases(LimitSpec limit) {
        RateLimitStore store = stores.get(limit.algorithm());
        return store != null && store.leases();
    }

    /**
     * Gives back {@code returned} tokens of this server's last lease of the ask's bucket and leases up to
     * {@code want} more ({@link RateLimitStore#lease}).
     *
     * @throws StoreUnavailableException when the store cannot be asked within the guard's budget
     */
    Granted lease(Ask ask, LeaseTerms terms) {
        Charge c = ask.charge();
        RateLimitStore store = store(c.limit());
        String key = ask.storeKey();
        return guard.call(key, () -> store.lease(c.spentPolicy(), key, terms));
    }

    /**
     * Ends this server's lease of the bucket at {@code storeKey}, giving back the {@code terms.returned()}
     * tokens it did not spend; null when the store cannot be asked.
     */
    Granted giveBack(LimitSpec limit, LimitPolicy policy, String storeKey, LeaseTerms terms) {
        RateLimitStore store = store(limit);
        try {
            return guard.call(storeKey, () -> store.lease(policy, storeKey, terms));
        } catch (StoreUnavailableException e) {
            return null;
        }
    }

    /** Settles {@code c} at {@code delta} more (or less); false when the store cannot be asked or took nothing. */
    boolean settle(Charged c, String storeKey, long delta) {
        RateLimitStore store = store(c.charge().limit());
        try {
            return guard.call(
                    storeKey,
                    () -> store.settle(c.charge().spentPolicy(), storeKey, c.mark(), delta, usage(c, storeKey)));
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    private static UsageLedger usage(Charged c, String storeKey) {
        return UsageLedger.of(c.charge().limit(), storeKey, c.charge().clientKey());
    }

    private RateLimitStore store(LimitSpec limit) {
        RateLimitStore store = stores.get(limit.algorithm());
        if (store == null) {
            throw new IllegalStateException("no store for " + limit.algorithm().configName() + " limits");
        }
        return store;
    }
}
