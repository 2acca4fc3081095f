package dev.tollgate.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.guard.GuardSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The Fault Tolerance keys of Tollgate's own {@code @Timeout} and {@code @CircuitBreaker}, answered from
 * {@code tollgate.redis.timeout} and {@code tollgate.breaker.*}, and those settings read and checked.
 */
class FaultToleranceDefaultsTest {

    private static final String CALLER = "dev.tollgate.cdi.FaultTolerantRedisCaller/call/";

    private static String key(String key, Map<String, String> settings) {
        return FaultToleranceDefaults.value(key, PropertySource.of(settings));
    }

    @Test
    void theKeysAreTheCallersOwnMethodLevelOnes() {
        assertEquals(
                Set.of(
                        CALLER + "Timeout/value",
                        CALLER + "CircuitBreaker/requestVolumeThreshold",
                        CALLER + "CircuitBreaker/delay"),
                new FaultToleranceDefaults().getPropertyNames());
        assertNull(key(CALLER + "CircuitBreaker/failureRatio", Map.of()), "left to the annotation");
        assertNull(key("CircuitBreaker/delay", Map.of("tollgate.breaker.delay", "2s")), "an application's global key");
    }

    @Test
    void unsetTheyAreGuardSettingsDefaults() {
        assertEquals("250", key(FaultToleranceDefaults.TIMEOUT, Map.of()));
        assertEquals("3", key(FaultToleranceDefaults.FAILURES, Map.of()));
        assertEquals("500", key(FaultToleranceDefaults.DELAY, Map.of()));
        assertEquals(GuardSettings.defaults(), SettingsReader.guard(PropertySource.of(Map.of())));
    }

    @Test
    void theyFollowTheTollgateSettingsInAnySourcesSpelling() {
        Map<String, String> settings = Map.of(
                "tollgate.redis.timeout", "2s",
                "tollgate.breaker.failures", "5",
                "TOLLGATE_BREAKER_DELAY", "1m");
        assertEquals("2000", key(FaultToleranceDefaults.TIMEOUT, settings));
        assertEquals("5", key(FaultToleranceDefaults.FAILURES, settings));
        assertEquals("60000", key(FaultToleranceDefaults.DELAY, settings));
    }

    @Test
    void aBadValueIsItsDefaultHereAndFailsTheDeploymentNamingTheProperty() {
        Map<String, String> bad = Map.of("tollgate.breaker.failures", "0", "tollgate.breaker.delay", "11m");
        assertEquals("3", key(FaultToleranceDefaults.FAILURES, bad));
        assertEquals("500", key(FaultToleranceDefaults.DELAY, bad));
        String e = assertThrows(TollgateConfigException.class, () -> SettingsReader.read(PropertySource.of(bad)))
                .getMessage();
        assertTrue(e.contains("tollgate.breaker.failures=0 (expected a whole number from 1 to 1000)"), e);
        assertTrue(e.contains("tollgate.breaker.delay=11m (expected a duration from 0ms to 10m such as 500ms)"), e);
        String words = assertThrows(
                        TollgateConfigException.class,
                        () -> SettingsReader.read(PropertySource.of(Map.of("tollgate.breaker.failures", "many"))))
                .getMessage();
        assertTrue(words.contains("tollgate.breaker.failures=many (expected a whole number from 1 to 1000)"), words);
    }

    @Test
    void aMisspeltBreakerSettingFailsTheDeploymentAsPropertyOrVariable() {
        for (String name : new String[] {"tollgate.breaker.failure", "TOLLGATE_BREAKER_FAILURE"}) {
            String e = assertThrows(
                            TollgateConfigException.class,
                            () -> SettingsReader.read(PropertySource.of(Map.of(name, "5"))))
                    .getMessage();
            assertTrue(
                    e.contains(name + " (") && e.contains("did you mean ") && e.contains("tollgate.breaker.failures"),
                    e);
        }
    }

    @Test
    void theSettingsHoldTheBreakerAtTheEdgesOfItsRange() {
        GuardSettings guard = SettingsReader.read(
                        PropertySource.of(Map.of("tollgate.breaker.failures", "1000", "tollgate.breaker.delay", "10m")))
                .guard();
        assertEquals(1000, guard.failureThreshold());
        assertEquals(Duration.ofMinutes(10), guard.breakerDelay());
        assertEquals(
                Duration.ZERO,
                SettingsReader.guard(PropertySource.of(Map.of("tollgate.breaker.delay", "0ms")))
                        .breakerDelay());
    }
}
