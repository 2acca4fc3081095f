/**
 * The decision core: {@link dev.tollgate.internal.ratelimit.RateLimiter} (a limit and a client key in, a decision
 * out, every decision through one chain of {@code Stage}s), configured limits ({@link
 * dev.tollgate.internal.ratelimit.LimitSpec}, {@link dev.tollgate.internal.ratelimit.KeySpec}, {@link
 * dev.tollgate.internal.ratelimit.Algorithm}), store keys ({@link dev.tollgate.internal.ratelimit.StoreKeys}: the client key
 * hashed under the limit's name) and the stores, one for Redis and one in process, each with a factory
 * per algorithm; an operator's per-client rules in Redis ({@link dev.tollgate.internal.ratelimit.RedisClientRules}:
 * overrides and blocks, read by every decision script).
 *
 * <p>Uses the API, {@code core} and {@code redis}. Internal.
 */
package dev.tollgate.internal.ratelimit;
