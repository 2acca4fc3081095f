package dev.tollgate.internal.lock;

import dev.tollgate.Acquisition;
import java.time.Duration;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Waits for a lock: tries, and while another holder has it sleeps until it hears of a release, the
 * holder's lock expires, the poll interval passes (in case a notice was lost) or {@code maxWait} runs
 * out, whichever comes first; then tries again. Never past {@code maxWait}.
 */
final class LockWaiter {

    private final ReleaseNotices notices;
    private final Duration pollInterval;
    private final LongSupplier nanoTime;

    LockWaiter(ReleaseNotices notices, Duration pollInterval, LongSupplier nanoTime) {
        this.notices = notices;
        this.pollInterval = pollInterval;
        this.nanoTime = nanoTime;
    }

    /** @param attempt one non-waiting acquire of {@code name} */
    Acquisition acquire(String name, Duration maxWait, Function<String, Acquisition> attempt) {
        LockNames.check(name);
        long deadline = nanoTime.getAsLong() + checkMaxWait(name, maxWait).toNanos();
        while (true) {
            try (ReleaseNotices.Notice notice = notices.expect(name)) {
                Acquisition a = attempt.apply(name);
                if (!(a instanceof Acquisition.HeldElsewhere held)) {
                    return a;
                }
                long left = deadline - nanoTime.getAsLong();
                if (left <= 0) {
                    return held;
                }
                // PTTL is whole milliseconds, rounded down: one more and the holder's lock is gone.
                Duration nap = held.expiresIn().compareTo(pollInterval) < 0
                        ? held.expiresIn().plusMillis(1)
                        : pollInterval;
                try {
                    notice.await(Math.min(left, nap.toNanos()));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return held;
                }
            }
        }
    }

    static Duration checkMaxWait(String name, Duration maxWait) {
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("lock '" + name + "': maxWait must be >= 0, but was " + maxWait);
        }
        return maxWait;
    }
}
