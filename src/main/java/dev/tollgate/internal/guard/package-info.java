/**
 * The Redis-failure guard: one budget per call on Tollgate's own workers ({@link
 * dev.tollgate.internal.guard.ExecutorCaller}), a circuit breaker ({@link dev.tollgate.internal.guard.Breaker}), the
 * background probe that closes it ({@link dev.tollgate.internal.guard.RedisGuard}), one guard per cluster master
 * ({@link dev.tollgate.internal.guard.ShardedGuard}), and their defaults ({@link dev.tollgate.internal.guard.GuardSettings}).
 * Only outages reach the breaker: a failure is classified inside it ({@link
 * dev.tollgate.internal.guard.FailureClassifier}, for Redis {@code dev.tollgate.internal.redis.RedisFailures}), and one that
 * is not an outage leaves as {@link dev.tollgate.internal.guard.NotAnOutageException}, which the breaker skips.
 *
 * <p>Uses {@code core} and the API ({@code DegradedCause}) only: no Redis client (a probe is a callable it is given), no MicroProfile (Fault
 * Tolerance's breaker is adapted in {@code cdi}). Internal.
 */
package dev.tollgate.internal.guard;
