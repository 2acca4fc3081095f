/**
 * Distributed locks with fencing tokens ({@link dev.tollgate.lock.DistributedLock}, in Redis or in
 * process) and the runner behind {@code @OncePerCluster} ({@link dev.tollgate.lock.OncePerClusterRunner}).
 *
 * <p>Uses the API ({@code LockLost}), {@code core} and {@code redis}. API: {@code DistributedLock},
 * {@code Acquisition}, {@code LockHandle}, {@code KeepAlive}, {@code LockUnavailableException}; the
 * rest is internal.
 */
package dev.tollgate.lock;
