package dev.tollgate;

/**
 * Which calls a {@link RateLimited} limit counts ({@link RateLimited#countOn()}). Every call spends
 * before it runs, so a spent bucket blocks the next call whatever its outcome; a call whose outcome is
 * not counted gets its tokens back when it ends, in one atomic script that never raises a bucket above
 * its capacity.
 */
public enum CountOn {
    /** Every admitted call counts (the default). */
    ALWAYS,
    /** Only calls that succeed count: no exception of {@link RateLimited#failOn()}, an HTTP status below 400. */
    SUCCESS,
    /**
     * Only calls that fail count: an exception of {@link RateLimited#failOn()}, or for the JAX-RS filter
     * an HTTP status of 400 or more. A login limit counts failed attempts only.
     */
    FAILURE;

    /** Whether a call with this outcome stays counted. */
    public boolean counts(boolean failed) {
        return this == ALWAYS || (this == FAILURE) == failed;
    }
}
