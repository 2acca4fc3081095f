/**
 * Distributed locks with fencing tokens ({@link dev.tollgate.lock.DistributedLock}, in Redis or in
 * process) and the runner behind {@code @OncePerCluster} ({@link dev.tollgate.lock.OncePerClusterRunner}).
 *
 * <p>Uses {@code core} and {@code redis}. API: {@code DistributedLock}, {@code Acquisition}, {@code
 * LockHandle}, {@code LockUnavailableException}; the rest is internal.
 */
package dev.tollgate.lock;
