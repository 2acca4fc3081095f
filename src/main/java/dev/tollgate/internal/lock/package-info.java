/**
 * Distributed locks with fencing tokens ({@link dev.tollgate.DistributedLock}, in Redis or in
 * process) and the runner behind {@code @OncePerCluster} ({@link dev.tollgate.internal.lock.OncePerClusterRunner}).
 *
 * <p>Uses the API ({@code LockLost}), {@code core} and {@code redis}. Internal: the API ({@code DistributedLock},
 * {@code Acquisition}, {@code LockHandle}, {@code KeepAlive}, {@code LockUnavailableException}) is in
 * {@code dev.tollgate}.
 */
package dev.tollgate.internal.lock;
