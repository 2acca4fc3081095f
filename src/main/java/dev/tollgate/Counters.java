package dev.tollgate;

import java.time.Duration;

/**
 * Named counters that expire. An increment and the setting of the expiry are one atomic step, so a
 * counter can never be left without an expiry, as the article's {@code INCR} then {@code EXPIRE} can
 * when the caller dies between the two.
 *
 * <p>The expiry is set when the increment finds the counter without one, which is when it creates the
 * counter: later increments do not move it, so a counter incremented steadily still starts from zero
 * once {@code ttl} after its first increment (a fixed window, not a sliding one).
 */
public interface Counters {

    /**
     * Adds {@code by} to the counter {@code name}, creating it at 0 with an expiry of {@code ttl} first
     * if it does not exist.
     *
     * @param name letters, digits, {@code _ . : -}; 1 to 200 characters
     * @param by the amount, any {@code long} (negative decrements)
     * @param ttl &gt; 0, rounded up to whole milliseconds
     * @return the counter's value after the increment
     * @throws dev.tollgate.StoreUnavailableException when the store could not be asked
     */
    long increment(String name, long by, Duration ttl);

    /** The counter's value, 0 when it does not exist or has expired. */
    long get(String name);
}
