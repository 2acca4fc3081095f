package dev.tollgate;

/**
 * A lock this server held is no longer its own: fired as a CDI event (observe it with {@code @Observes}
 * or {@code @ObservesAsync}) and counted as {@code tollgate_lock_lost_total{lock,reason}}, once per
 * acquisition, the first time Tollgate learns of it: a keep-alive or an extend that the lock's store
 * refused, a release that found the lock gone, or a keep-alive that could not reach the store before
 * the lock's ttl passed.
 *
 * <p>The job that held it may still be running, and another server may be running it too. Stop
 * writing; a resource that checks fencing tokens refuses this holder's writes already.
 *
 * @param lockName the lock
 * @param fencingToken the lost acquisition's fencing token
 * @param reason how it was lost
 */
public record LockLost(String lockName, long fencingToken, Reason reason) {

    public LockLost {
        if (lockName == null || lockName.isEmpty()) {
            throw new IllegalArgumentException("lockName must not be empty, but was '" + lockName + "'");
        }
        if (reason == null) {
            throw new IllegalArgumentException("reason must not be null");
        }
    }

    /** How a lock was lost. */
    public enum Reason {
        /** Its ttl passed (a pause, a slow job without keep-alive) and nobody holds it now. */
        EXPIRED,
        /** Its ttl passed and another holder has taken it. */
        TAKEN,
        /**
         * The keep-alive could not reach the lock's store before the ttl passed: the lock has expired
         * there, or will within the store's round trip.
         */
        UNCONFIRMED
    }
}
