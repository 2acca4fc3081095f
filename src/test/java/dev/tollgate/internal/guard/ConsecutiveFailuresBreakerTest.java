package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ConsecutiveFailuresBreakerTest {

    private final AtomicLong now = new AtomicLong();
    private final ConsecutiveFailuresBreaker breaker =
            new ConsecutiveFailuresBreaker(3, Duration.ofMillis(500), now::get);

    @Test
    void opensAfterThresholdFailuresInARow() {
        breaker.onFailure();
        breaker.onFailure();
        breaker.onSuccess();
        breaker.onFailure();
        breaker.onFailure();
        assertFalse(breaker.isOpen(), "a success in between starts the count again");
        breaker.onFailure();
        assertTrue(breaker.isOpen());
        assertThrows(BreakerOpenException.class, breaker::acquire);
    }

    @Test
    void letsOneTrialThroughAfterTheDelay() {
        trip();
        now.addAndGet(Duration.ofMillis(499).toNanos());
        assertThrows(BreakerOpenException.class, breaker::acquire);
        now.addAndGet(Duration.ofMillis(1).toNanos());
        assertDoesNotThrow(breaker::acquire);
        assertThrows(BreakerOpenException.class, breaker::acquire, "only one trial at a time");
        breaker.onSuccess();
        assertFalse(breaker.isOpen());
        assertDoesNotThrow(breaker::acquire);
    }

    @Test
    void failedTrialOpensItForAnotherDelay() {
        trip();
        now.addAndGet(Duration.ofMillis(500).toNanos());
        breaker.acquire();
        breaker.onFailure();
        assertThrows(BreakerOpenException.class, breaker::acquire);
        now.addAndGet(Duration.ofMillis(500).toNanos());
        assertDoesNotThrow(breaker::acquire);
    }

    private void trip() {
        for (int i = 0; i < 3; i++) {
            breaker.onFailure();
        }
    }
}
