package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.testing.ManualClock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A decision of a store outside this JVM is timed for a listener that reads its nanos, alone or beside
 * listeners that read none; when no listener reads them, or the store decides in this JVM's memory, the
 * clock is not read for it and they are told {@link DecisionListener#UNTIMED}.
 */
class ToldTest {

    private static final LimitSpec API = new LimitSpec(LimitPolicy.quota("api", 10), new KeySpec.Global(), false);

    private final AtomicLong reads = new AtomicLong();
    private final List<Long> told = new ArrayList<>();

    /** Each read of the clock is 7 ns after the one before. */
    private long nanoTime() {
        return 7 * reads.incrementAndGet();
    }

    private final DecisionListener timer = (limit, decision, nanos) -> told.add(nanos);

    private final DecisionListener untimed = new DecisionListener() {
        @Override
        public void onDecision(LimitSpec limit, Decision decision, long nanos) {
            told.add(nanos);
        }

        @Override
        public boolean timesDecisions() {
            return false;
        }
    };

    /** Stands for the Redis guard: the store behind it is not in this JVM's memory. */
    private static final Guard GUARDED = new Guard() {
        @Override
        public <T> T call(String storeKey, Callable<T> call) {
            return Guard.DIRECT.call(storeKey, call);
        }
    };

    private RateLimiter limiter(DecisionListener listener) {
        return limiter(GUARDED, listener);
    }

    private RateLimiter limiter(Guard guard, DecisionListener listener) {
        return new RateLimiter(InProcessRateLimitStore.tokenBucket(new ManualClock()), guard, listener, this::nanoTime);
    }

    @Test
    void aListenerThatReadsTheNanosIsToldHowLongTheDecisionTook() {
        limiter(DecisionListener.both(untimed, DecisionListener.both(timer, DecisionListener.NONE)))
                .check(API, "a");
        assertEquals(List.of(7L, 7L), told, "both listeners told the one time taken");
    }

    @Test
    void whenNoListenerReadsThemTheClockIsNotReadForThem() {
        long before = reads.get();
        limiter(DecisionListener.both(untimed, untimed)).check(API, "a");
        assertEquals(List.of(DecisionListener.UNTIMED, DecisionListener.UNTIMED), told);
        assertEquals(before, reads.get(), "the decision was not timed");
    }

    @Test
    void aDecisionOfAStoreInThisJvmIsNotTimed() {
        long before = reads.get();
        limiter(Guard.DIRECT, timer).check(API, "a");
        assertEquals(List.of(DecisionListener.UNTIMED), told);
        assertEquals(before, reads.get(), "the decision was not timed");
    }
}
