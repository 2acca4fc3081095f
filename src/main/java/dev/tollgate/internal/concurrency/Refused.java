package dev.tollgate.internal.concurrency;

import dev.tollgate.Permit;
import java.time.Duration;

/** A refusal: every slot is taken, or the store could not be asked and the limit fails closed. */
record Refused(String limit, long inFlight, boolean degraded) implements Permit {

    static Refused degraded(ConcurrencySpec spec) {
        return new Refused(spec.name(), 0, true);
    }

    @Override
    public boolean admitted() {
        return false;
    }

    @Override
    public Duration retryAfter() {
        return Duration.ofSeconds(ConcurrencyLimiter.RETRY_AFTER_SECONDS);
    }

    @Override
    public void close() {}
}
