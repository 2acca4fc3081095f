package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PacingLimitTest {

    @Test
    void theBuiltInPacingLimitIsThereWithoutConfigurationAndNeverDenies() {
        TollgateSettings s = SettingsReader.read(PropertySource.of(Map.of()));
        LimitPolicy p = s.limit(PacingLimit.NAME).orElseThrow().policy();
        assertTrue(PacingLimit.builtIn(p));
        assertEquals(LimitPolicy.MAX_COUNT, p.capacity());
        assertTrue(s.limit(PacingLimit.NAME).orElseThrow().failOpen(), "paces, never stops a call, without Redis");
    }

    @Test
    void aConfiguredPacingLimitWins() {
        TollgateSettings s = SettingsReader.read(PropertySource.of(Map.of(
                "tollgate.limits.tollgate-pacing.capacity", "3",
                "tollgate.limits.tollgate-pacing.refill-tokens", "1",
                "tollgate.limits.tollgate-pacing.refill-period", "2s")));
        LimitPolicy p = s.limit(PacingLimit.NAME).orElseThrow().policy();
        assertEquals(LimitPolicy.of(PacingLimit.NAME, 3, 1, Duration.ofSeconds(2)), p);
        assertFalse(PacingLimit.builtIn(p));
    }

    @Test
    void thePacingMaxWaitIsASettingWithItsRange() {
        assertEquals(
                HttpSettings.DEFAULT_PACING_MAX_WAIT,
                SettingsReader.read(PropertySource.of(Map.of())).http().pacingMaxWait());
        assertEquals(
                Duration.ZERO,
                SettingsReader.read(PropertySource.of(Map.of("tollgate.http.pacing-max-wait", "0s")))
                        .http()
                        .pacingMaxWait());
    }
}
