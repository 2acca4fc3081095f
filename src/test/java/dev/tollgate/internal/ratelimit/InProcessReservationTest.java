package dev.tollgate.internal.ratelimit;

import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestClock;

/** Waiting on the in-process token bucket, on a clock that moves only when told. */
class InProcessReservationTest extends ReservationContract {

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.TOKEN_BUCKET, clock);

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return clock;
    }
}
