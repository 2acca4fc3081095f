package dev.tollgate;

import java.util.List;

/**
 * What an operator does to the locks: see which are held, by whom and for how long, and take one away
 * from a holder that is stuck. Each Redis call goes through the same budget and circuit breaker as a
 * lock call. In a CDI application {@code @Inject LockAdmin}; in plain Java, {@code Tollgate.lockAdmin()}.
 * Tollgate's optional admin resource ({@code tollgate.admin.enabled}) serves it over HTTP.
 *
 * <p>A forced release keeps fencing safe: the lock's last fencing token stays, so the next holder's is
 * higher, and a resource that checks fencing tokens refuses the old holder's writes. The old holder
 * learns of it at its next extend, keep-alive or release ({@link LockLost}).
 */
public interface LockAdmin {

    /**
     * The locks held now, by name. In Redis they are found through the index of the names taken lately
     * (the 1,000 latest), never by scanning the database: a listing costs Redis work bounded by those
     * names, and listings that overlap share one reading.
     *
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    List<LockHold> held();

    /**
     * Releases the lock {@code name} whoever holds it, and wakes the servers waiting for it.
     *
     * @return whether it was held (and is released now)
     * @throws IllegalArgumentException when {@code name} is not a lock name
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    boolean forceRelease(String name);

    /**
     * Releases the lock {@code name} only while the holder is the one with {@code fencingToken}: the
     * holder an operator saw in {@link #held()}, not one that took the lock since.
     *
     * @return whether that holder held it (and it is released now)
     * @throws IllegalArgumentException when {@code name} is not a lock name
     * @throws dev.tollgate.StoreUnavailableException when Redis cannot be asked
     */
    boolean forceRelease(String name, long fencingToken);
}
