/**
 * Named counters that expire, incremented atomically with their expiry ({@link
 * dev.tollgate.Counters}, in Redis or in process).
 *
 * <p>Uses {@code core} and {@code redis}. Internal: the API is {@link
 * dev.tollgate.Counters}.
 */
package dev.tollgate.internal.counter;
