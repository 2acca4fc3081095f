package dev.tollgate.internal.ratelimit;

import dev.tollgate.testing.ManualClock;
import dev.tollgate.testing.TestClock;
import java.util.Map;

class InProcessSettingsChangeTest extends SettingsChangeContract {

    private final ManualClock clock = new ManualClock();
    private final Map<Algorithm, RateLimitStore> stores = Map.of(
            Algorithm.TOKEN_BUCKET, InProcessRateLimitStore.tokenBucket(clock),
            Algorithm.FIXED_WINDOW, InProcessRateLimitStore.fixedWindow(clock),
            Algorithm.SLIDING_WINDOW, InProcessRateLimitStore.slidingWindow(clock),
            Algorithm.CALENDAR, InProcessRateLimitStore.of(Algorithm.CALENDAR, clock));

    @Override
    protected RateLimitStore store(Algorithm algorithm) {
        return stores.get(algorithm);
    }

    @Override
    protected TestClock clock() {
        return clock;
    }
}
