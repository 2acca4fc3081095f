package dev.tollgate.testing;

import java.time.Duration;

/** Read timeouts for tests. */
public final class Timeouts {

    /**
     * For tests of exactness and state, not of the budget: 32 threads on a loaded 2-core machine can
     * see one reply later than 250 ms, and such a test must not fail on the clock it does not test.
     */
    public static final Duration GENEROUS = Duration.ofSeconds(2);

    private Timeouts() {}
}
