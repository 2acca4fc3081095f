/**
 * Concurrency limits: at most so many calls per key at once across every server ({@link
 * dev.tollgate.internal.concurrency.ConcurrencyLimiter}), each call holding a lease that it renews while it runs
 * and frees when it ends ({@link dev.tollgate.internal.concurrency.ConcurrencyStore}, in Redis or in process).
 *
 * <p>Uses the API, {@code core}, {@code redis} and {@code ratelimit} (client keys and store keys).
 * Internal: users go through {@code dev.tollgate.ConcurrencyLimits} and {@code @ConcurrencyLimited}.
 */
package dev.tollgate.internal.concurrency;
