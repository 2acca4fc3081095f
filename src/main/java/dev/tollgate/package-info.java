/**
 * Tollgate's public API: what applications import. The annotations {@link dev.tollgate.RateLimited},
 * {@link dev.tollgate.RateKey} and {@link dev.tollgate.OncePerCluster}; {@link dev.tollgate.RateLimits}
 * to check a limit from code; {@link dev.tollgate.RateLimitAdmin} and {@link dev.tollgate.LockAdmin} (with
 * {@link dev.tollgate.LockHold}) for an operator; the values {@link dev.tollgate.LimitPolicy} and {@link
 * dev.tollgate.Decision}; configuration in code: {@link dev.tollgate.Limit}, {@link
 * dev.tollgate.ConcurrencyLimit} and {@link dev.tollgate.Key}, built and checked by {@link
 * dev.tollgate.LimitRules} (each problem a {@link dev.tollgate.ConfigProblem}); and {@link dev.tollgate.DegradedCause} (why a decision was made without Redis); {@link dev.tollgate.KeyResolver} and {@link dev.tollgate.CallerInfo} for keys
 * of one's own; the exceptions {@link dev.tollgate.RateLimitExceededException} and {@link
 * dev.tollgate.TollgateConfigException}.
 *
 * <p>Uses nothing of Tollgate's sub-packages and no Redis client: only the Jakarta annotations that make
 * the bindings interceptor bindings. The README lists the few sub-package types that are API too
 * ({@code engine.Tollgate}, {@code counter.Counters}, the {@code lock} interfaces, {@code
 * core.StoreUnavailableException}); every other type is internal and may change.
 */
package dev.tollgate;
