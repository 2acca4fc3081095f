package dev.tollgate.internal.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.LogCapture;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard's lines about failures that are not outages, on a clock the test drives: refused credentials
 * are one ERROR a minute while they last and one INFO when they work again (then an ERROR at once if they
 * are refused again); a saturated pool and this server's load are one WARNING a minute each, apart from
 * each other. Every line names where Redis is, says which cause, and is one line without a password.
 */
class FailureNoticesTest {

    static final String TARGET = "127.0.0.1:6390";
    static final Duration MINUTE = Duration.ofMinutes(1);

    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L); // any origin: nanoTime's is arbitrary
    private final FailureNotices notices = new FailureNotices(TARGET, nanos::get);
    private final LogCapture log = new LogCapture(RedisGuard.class);

    @AfterEach
    void close() {
        log.close();
    }

    private void advance(Duration d) {
        nanos.addAndGet(d.toNanos());
    }

    private static Exception refused(String reply) {
        return new IllegalStateException(reply);
    }

    @Test
    void refusedCredentialsAreOneErrorAMinuteWhileTheyLast() {
        for (int i = 0; i < 50; i++) {
            notices.authRefused(refused("WRONGPASS invalid username-password pair or user is disabled."));
        }
        List<String> errors = log.at(Level.SEVERE);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).contains(TARGET) && errors.get(0).contains("WRONGPASS"), errors.get(0));
        assertTrue(errors.get(0).contains("cause auth"), errors.get(0));
        advance(MINUTE.minusNanos(1));
        notices.authRefused(refused("WRONGPASS again"));
        assertEquals(1, log.at(Level.SEVERE).size(), "a nanosecond before the minute is up");
        advance(Duration.ofNanos(1));
        notices.authRefused(refused("WRONGPASS again"));
        assertEquals(2, log.at(Level.SEVERE).size(), "a minute after the first line, while it lasts");
        assertEquals(0, log.at(Level.INFO).size(), "no 'again' while refused");
        assertEquals(0, log.at(Level.WARNING).size());
        assertTrue(log.oneLineEach(Level.SEVERE), "one line, no stack trace");
    }

    @Test
    void theAuthFailureIsWhatRedisLastSaidWhileItLasts() {
        assertEquals(Optional.empty(), notices.authFailure(), "before any refusal");
        notices.authRefused(refused("WRONGPASS first"));
        notices.authRefused(refused("NOPERM this user has no permissions to run the 'evalsha' command"));
        assertTrue(notices.authFailure().orElseThrow().contains("NOPERM"), notices.authFailure() + ": the last reply");
        assertFalse(
                notices.authFailure().orElseThrow().contains("WRONGPASS"),
                notices.authFailure().toString());
        notices.answered();
        assertEquals(Optional.empty(), notices.authFailure(), "answered: no longer refused");
    }

    @Test
    void credentialsThatWorkAgainAreOneInfoAndTheNextRefusalIsLoggedAtOnce() {
        notices.answered();
        assertEquals(0, log.at(Level.INFO).size(), "answered without a refusal before: nothing to say");
        notices.authRefused(refused("WRONGPASS"));
        notices.answered();
        notices.answered();
        notices.answered();
        List<String> infos = log.at(Level.INFO);
        assertEquals(List.of("Tollgate: Redis at " + TARGET + " accepts Tollgate's credentials again"), infos);
        notices.authRefused(refused("WRONGPASS rotated again"));
        assertEquals(2, log.at(Level.SEVERE).size(), "refused again within the minute: a new state, logged at once");
        notices.answered();
        assertEquals(2, log.at(Level.INFO).size(), "and working again, once more");
    }

    @Test
    void aSaturatedPoolIsOneWarningAMinute() {
        for (int i = 0; i < 100; i++) {
            notices.saturated();
        }
        List<String> warnings = log.at(Level.WARNING);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(TARGET), warnings.get(0));
        assertTrue(warnings.get(0).contains("cause saturated"), warnings.get(0));
        assertTrue(warnings.get(0).contains("tollgate.redis.pool-size"), "says what to raise: " + warnings.get(0));
        advance(MINUTE.minusNanos(1));
        notices.saturated();
        assertEquals(1, log.at(Level.WARNING).size(), "a nanosecond before the minute is up");
        advance(Duration.ofNanos(1));
        notices.saturated();
        assertEquals(2, log.at(Level.WARNING).size(), "a minute after the first");
    }

    @Test
    void loadIsOneWarningAMinuteApartFromSaturationAndCredentials() {
        notices.saturated();
        for (int i = 0; i < 100; i++) {
            notices.load();
        }
        notices.authRefused(refused("WRONGPASS"));
        List<String> warnings = log.at(Level.WARNING);
        assertEquals(2, warnings.size(), "one per cause, each its own minute: " + warnings);
        assertTrue(warnings.get(0).contains("cause saturated"), warnings.get(0));
        assertTrue(warnings.get(1).contains("cause load") && warnings.get(1).contains(TARGET), warnings.get(1));
        assertFalse(warnings.get(1).contains("cause saturated"), warnings.get(1));
        assertEquals(1, log.at(Level.SEVERE).size(), "the credentials' own line, not held back by the others");
        notices.answered();
        advance(Duration.ofSeconds(30));
        notices.load();
        notices.saturated();
        assertEquals(2, log.at(Level.WARNING).size(), "credentials working again resets neither warning's minute");
        advance(Duration.ofSeconds(30));
        notices.load();
        notices.saturated();
        assertEquals(4, log.at(Level.WARNING).size(), log.at(Level.WARNING).toString());
        assertTrue(log.oneLineEach(Level.WARNING), "one line, no stack trace");
    }
}
