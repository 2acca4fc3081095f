package dev.tollgate.internal.concurrency;

import dev.tollgate.StoreUnavailableException;

/**
 * Where the leases of running calls live: per store key, a set of lease ids with their expiry. Every
 * act is atomic and clocked by the store; expired leases are dropped before counting.
 */
public interface ConcurrencyStore extends AutoCloseable {

    /**
     * Adds lease {@code leaseId} to {@code storeKey} if fewer than {@code spec.maxInFlight()} live
     * leases are there, expiring {@code spec.lease()} from now.
     *
     * @return whether it was taken, and how many live leases there are now (this one included)
     * @throws StoreUnavailableException when the store cannot be asked
     */
    Taking take(ConcurrencySpec spec, String storeKey, String leaseId);

    /**
     * Sets the lease to expire {@code spec.lease()} from now, if it is still there.
     *
     * @return false when it had expired (and its slot may be someone else's)
     */
    boolean renew(ConcurrencySpec spec, String storeKey, String leaseId);

    /** Drops the lease, freeing its slot; nothing when it has expired already. */
    void release(String storeKey, String leaseId);

    /**
     * One take.
     *
     * @param taken whether the lease was added
     * @param inFlight the live leases after the take
     */
    record Taking(boolean taken, long inFlight) {}

    @Override
    default void close() {}
}
