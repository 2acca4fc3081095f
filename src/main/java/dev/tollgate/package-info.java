/**
 * Tollgate's public API: what applications import. The annotations {@link dev.tollgate.RateLimited},
 * {@link dev.tollgate.RateKey} and {@link dev.tollgate.OncePerCluster}; {@link dev.tollgate.RateLimits}
 * to check a limit from code; {@link dev.tollgate.RateLimitAdmin} and {@link dev.tollgate.LockAdmin} (with
 * {@link dev.tollgate.LockHold}) for an operator; the values {@link dev.tollgate.LimitPolicy} and {@link
 * dev.tollgate.Decision}; configuration in code: {@link dev.tollgate.Limit}, {@link
 * dev.tollgate.ConcurrencyLimit} and {@link dev.tollgate.Key}, built and checked by {@link
 * dev.tollgate.LimitRules} (each problem a {@link dev.tollgate.ConfigProblem}); and {@link dev.tollgate.DegradedCause} (why a decision was made without Redis); {@link dev.tollgate.spi.KeyResolver} and {@link dev.tollgate.spi.CallerInfo} for keys
 * of one's own; the exceptions {@link dev.tollgate.RateLimitExceededException} and {@link
 * dev.tollgate.TollgateConfigException}.
 *
 * <p>Uses nothing of Tollgate's sub-packages and no Redis client: only the Jakarta annotations that make
 * the bindings interceptor bindings. Besides this package, what users plug in is in
 * {@code dev.tollgate.spi}, and plain Java's facade is {@code dev.tollgate.engine.Tollgate}; everything
 * under {@code dev.tollgate.internal} is internal and may change.
 */
package dev.tollgate;
