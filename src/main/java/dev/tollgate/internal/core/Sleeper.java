package dev.tollgate.internal.core;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** How a waiting call waits: the seam through which tests let time pass instead of sleeping. */
@FunctionalInterface
public interface Sleeper {

    /** Waits {@code d}; returns at once when it is zero or negative. */
    void sleep(Duration d) throws InterruptedException;

    /** {@link Thread#sleep}, interruptible. */
    Sleeper SYSTEM = d -> {
        long nanos = d.toNanos();
        if (nanos > 0) {
            TimeUnit.NANOSECONDS.sleep(nanos);
        }
    };
}
