/**
 * Named counters that expire, incremented atomically with their expiry ({@link
 * dev.tollgate.counter.Counters}, in Redis or in process).
 *
 * <p>Uses {@code core} and {@code redis}. API: {@code Counters}; the rest is internal.
 */
package dev.tollgate.counter;
