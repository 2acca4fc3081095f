package dev.tollgate.internal.ratelimit;

/**
 * Told of leased limits' work ({@link Leases}), for metrics. Must be quick and must not throw. Tokens
 * leased are either spent here, given back ({@link #onReturned}) or lost ({@link #onLost}).
 */
public interface LeaseListener {

    /** This server leased {@code tokens} of a client's bucket of {@code limit}. */
    default void onTaken(LimitSpec limit, long tokens) {}

    /** This server gave {@code tokens} it leased and did not spend back to the bucket. */
    default void onReturned(LimitSpec limit, long tokens) {}

    /**
     * {@code tokens} this server leased, did not spend and could not give back (Redis could not be asked
     * when they were due back): the bucket has them again only as it refills.
     */
    default void onLost(LimitSpec limit, long tokens) {}

    /**
     * A lease of {@code limit}'s bucket that another server took and never ended (it was killed, or cut off
     * from Redis when the lease was due back) was found abandoned by this server's lease of the same
     * bucket: {@code tokens} is what that lease held, so at most that many were lost, less what its server
     * spent. A server cut off, not killed, has also counted them as {@link #onLost} itself.
     */
    default void onAbandoned(LimitSpec limit, long tokens) {}

    /**
     * A call of a leased limit was decided: {@code local} when from this server's lease, in memory; else
     * by a script in Redis (a lease taken, a denial, or a per-call decision of a key with little demand).
     */
    default void onDecided(LimitSpec limit, boolean local) {}

    LeaseListener NONE = new LeaseListener() {};
}
