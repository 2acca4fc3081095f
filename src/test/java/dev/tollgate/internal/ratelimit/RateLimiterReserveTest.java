package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/** The waiting check of the decision core: degraded decisions, listener, and what cannot be waited for. */
class RateLimiterReserveTest {

    private final ManualClock clock = new ManualClock();
    private final List<String> heard = new ArrayList<>();
    private final DecisionListener listener = new DecisionListener() {
        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {
            heard.add((decision.degraded() ? "degraded " : "") + (decision.allowed() ? "allowed" : "denied"));
        }

        @Override
        public void onWait(LimitSpec limit, Duration wait) {
            heard.add("wait " + wait.toMillis());
        }
    };

    private static final Guard DOWN = new Guard() {
        @Override
        public <T> T call(String storeKey, Callable<T> call) {
            throw new StoreUnavailableException("down", new RuntimeException("refused"));
        }
    };

    private static LimitSpec limit(boolean failOpen) {
        return new LimitSpec(
                new LimitPolicy("partner", 1, 2, Duration.ofSeconds(1), 1), new KeySpec.Global(), failOpen);
    }

    private RateLimiter limiter(Guard guard) {
        return new RateLimiter(
                Map.of(Algorithm.TOKEN_BUCKET, InProcessRateLimitStore.tokenBucket(clock)), guard, listener, () -> 0);
    }

    @Test
    void waitsAreToldToTheListener() {
        RateLimiter limiter = limiter(Guard.DIRECT);
        assertEquals(
                Duration.ZERO,
                limiter.reserve(limit(true), "*", Duration.ofSeconds(3)).delay());
        assertEquals(
                Duration.ofMillis(500),
                limiter.reserve(limit(true), "*", Duration.ofSeconds(3)).delay());
        assertEquals(List.of("allowed", "allowed", "wait 500"), heard);
    }

    /**
     * A held denial answers only a call that does not wait: one that may wait past the retry-after asks
     * the store, and is admitted by reserving its tokens.
     */
    @Test
    void aHeldDenialDoesNotAnswerACallThatMayWait() {
        RateLimiter limiter = new RateLimiter(
                Map.of(Algorithm.TOKEN_BUCKET, InProcessRateLimitStore.tokenBucket(clock)),
                Map.of(),
                DeniedCache.of(10, () -> 0),
                Guard.DIRECT,
                listener,
                () -> 0,
                StoreKeys.DEFAULT);
        assertTrue(limiter.check(limit(true), "*").allowed());
        assertFalse(limiter.check(limit(true), "*").allowed(), "denied for 500 ms, and held");
        assertFalse(limiter.check(limit(true), "*").allowed(), "the held denial");
        Admission waited = limiter.admit(List.of(Charge.of(limit(true), "*")), Duration.ofSeconds(3));
        assertTrue(waited.allowed(), "reserved, not the held denial: " + waited.decision(0));
        assertEquals(Duration.ofMillis(500), waited.delay());
    }

    @Test
    void storeDownGivesTheDegradedDecisionAtOnce() {
        Reservation open = limiter(DOWN).reserve(limit(true), "*", Duration.ofSeconds(3));
        assertTrue(open.decision().allowed() && open.decision().degraded());
        assertEquals(Duration.ZERO, open.delay());
        Reservation closed = limiter(DOWN).reserve(limit(false), "*", Duration.ofSeconds(3));
        assertFalse(closed.decision().allowed());
        assertEquals(List.of("degraded allowed", "degraded denied"), heard);
    }

    @Test
    void onlyATokenBucketCanBeWaitedFor() {
        LimitSpec window = new LimitSpec(
                new LimitPolicy("w", 5, 5, Duration.ofSeconds(1), 1),
                Algorithm.FIXED_WINDOW,
                new KeySpec.Global(),
                true);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> limiter(Guard.DIRECT)
                .reserve(window, "*", Duration.ofSeconds(1)));
        assertEquals("limit 'w' is a fixed-window: only a token bucket can be waited for", e.getMessage());
    }
}
