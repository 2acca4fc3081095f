package dev.tollgate.internal.ratelimit;

/**
 * One step of the decision chain that {@link RateLimiter#check}, {@link RateLimiter#reserve} and {@link
 * RateLimiter#admit} all go through; each stage does one thing and asks the next one inward.
 */
@FunctionalInterface
interface Stage {

    /** One limit's part: its decision, and what the store took. */
    Charged apply(Ask ask);
}
