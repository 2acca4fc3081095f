package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A held denial lasts from when its call was sent until its retry-after, and answers with the time left;
 * what would deny forever, or is no store's denial, is not held; a bounded cache forgets its oldest key.
 */
class DeniedCacheTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final DeniedCache cache = DeniedCache.of(10, nanos::get);

    private static Decision denied(long remaining, Duration retryAfter, Duration resetAfter) {
        return new Decision(false, remaining, retryAfter, resetAfter, false);
    }

    private void elapse(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    @Test
    void aDenialIsHeldFromWhenItsCallWasSentUntilItsRetryAfter() {
        long sent = nanos.get();
        elapse(Duration.ofMillis(100)); // the store took 100 ms to answer
        cache.hold("k", sent, denied(2, Duration.ofMillis(500), Duration.ofSeconds(3)));
        assertEquals(
                Optional.of(denied(2, Duration.ofMillis(400), Duration.ofMillis(2900))),
                cache.denial("k"),
                "the times left count from the send, not from the answer");
        elapse(Duration.ofMillis(399));
        assertEquals(Optional.of(denied(2, Duration.ofMillis(1), Duration.ofMillis(2501))), cache.denial("k"));
        elapse(Duration.ofMillis(1));
        assertEquals(Optional.empty(), cache.denial("k"), "the retry-after has passed");
        assertEquals(Optional.empty(), cache.denial("other"), "another key was never held");
    }

    @Test
    void aDenialWhoseBucketIsNeverFullAgainSaysSo() {
        cache.hold("k", nanos.get(), denied(0, Duration.ofSeconds(1), Decision.NEVER));
        assertEquals(Optional.of(denied(0, Duration.ofSeconds(1), Decision.NEVER)), cache.denial("k"));
    }

    @Test
    void theTimesLeftAreNeverLessThanAMicrosecond() {
        long sent = nanos.get();
        // full again when the retry-after ends: at the last microsecond the reset has 0 left, told as 1 µs
        cache.hold("k", sent, denied(0, Duration.ofMillis(10), Duration.ofMillis(5)));
        elapse(Duration.ofNanos(9_999_000));
        assertEquals(Optional.of(denied(0, Duration.ofNanos(1000), Duration.ofNanos(1000))), cache.denial("k"));
    }

    @Test
    void whatIsNoStoresTimedDenialIsNotHeld() {
        long now = nanos.get();
        cache.hold("allowed", now, new Decision(true, 1, Duration.ZERO, Duration.ofSeconds(1), false));
        cache.hold("degraded", now, new Decision(false, 0, Duration.ofSeconds(1), Duration.ZERO, true));
        cache.hold("never", now, denied(0, Decision.NEVER, Decision.NEVER));
        assertEquals(0, cache.size(), "nothing held");
        assertEquals(Optional.empty(), cache.denial("allowed"));
        assertEquals(Optional.empty(), cache.denial("degraded"));
        assertEquals(Optional.empty(), cache.denial("never"));
    }

    @Test
    void aDenialWhoseRetryAfterPassedBeforeItsAnswerCameIsNotHeld() {
        long sent = nanos.get();
        elapse(Duration.ofMillis(500));
        cache.hold("k", sent, denied(0, Duration.ofMillis(500), Duration.ofSeconds(1)));
        assertEquals(0, cache.size(), "ended as it was answered");
        cache.hold("k", sent, denied(0, Duration.ofMillis(501), Duration.ofSeconds(1)));
        assertEquals(1, cache.size(), "a microsecond left");
        assertEquals(Optional.of(denied(0, Duration.ofMillis(1), Duration.ofMillis(500))), cache.denial("k"));
    }

    @Test
    void aNewerDenialReplacesTheHeldOne() {
        cache.hold("k", nanos.get(), denied(3, Duration.ofSeconds(1), Duration.ofSeconds(2)));
        cache.hold("k", nanos.get(), denied(1, Duration.ofSeconds(4), Duration.ofSeconds(5)));
        assertEquals(Optional.of(denied(1, Duration.ofSeconds(4), Duration.ofSeconds(5))), cache.denial("k"));
        assertEquals(1, cache.size());
    }

    @Test
    void aForgottenKeyIsAskedAgainAndClearForgetsEveryKey() {
        Decision d = denied(0, Duration.ofSeconds(1), Duration.ofSeconds(1));
        cache.hold("a", nanos.get(), d);
        cache.hold("b", nanos.get(), d);
        cache.hold("c", nanos.get(), d);
        cache.forget("a");
        assertEquals(Optional.empty(), cache.denial("a"));
        assertTrue(cache.denial("b").isPresent(), "only the one key forgotten");
        cache.clear();
        assertEquals(Optional.empty(), cache.denial("b"));
        assertEquals(Optional.empty(), cache.denial("c"));
        assertEquals(0, cache.size());
    }

    @Test
    void aFullCacheForgetsItsOldestKeyFirst() {
        DeniedCache one = DeniedCache.of(1, nanos::get);
        Decision d = denied(0, Duration.ofSeconds(1), Duration.ofSeconds(1));
        one.hold("a", nanos.get(), d);
        one.hold("b", nanos.get(), d);
        assertEquals(1, one.size());
        assertEquals(Optional.empty(), one.denial("a"), "evicted: asked of the store again");
        assertTrue(one.denial("b").isPresent());
    }

    @Test
    void aCacheHoldsAtLeastOneKey() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DeniedCache.of(0, nanos::get));
        assertEquals("maxKeys must be >= 1, but was 0", e.getMessage());
    }
}
