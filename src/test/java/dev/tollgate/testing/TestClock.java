package dev.tollgate.testing;

import java.time.Duration;

/** A store's clock as a test sees it: read it, and let time pass on it. */
public interface TestClock {

    long nowMicros();

    /** Lets at least {@code d} pass on this clock. */
    void elapse(Duration d) throws InterruptedException;
}
