package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Limit;
import dev.tollgate.LimitRules;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.testing.TestSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code tollgate.limits.<name>.usage-days}: off or 1 to 400; anything else fails the deployment naming it. */
class UsageDaysSettingTest {

    @ParameterizedTest
    @ValueSource(strings = {"0", "401", "-1", "abc", "1.5", "30d"})
    void aBadRetentionFailsNamingTheProperty(String bad) {
        TollgateConfigException e = assertThrows(
                TollgateConfigException.class,
                () -> TestSettings.read(
                        "tollgate.limits.billed.capacity",
                        "10",
                        "tollgate.limits.billed.refill-tokens",
                        "1",
                        "tollgate.limits.billed.usage-days",
                        bad));
        assertTrue(e.getMessage().contains("tollgate.limits.billed.usage-days"), e.getMessage());
        assertTrue(e.getMessage().contains(LimitRules.USAGE_DAYS_RULE), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"1", "35", "400", "off", "OFF"})
    void aGoodRetentionIsKept(String good) {
        TollgateSettings s = TestSettings.read(
                "tollgate.limits.billed.capacity",
                "10",
                "tollgate.limits.billed.refill-tokens",
                "1",
                "tollgate.limits.billed.usage-days",
                good);
        int days = good.equalsIgnoreCase("off") ? LimitRules.USAGE_OFF : Integer.parseInt(good);
        assertEquals(days, s.limits().get("billed").usageDays());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 401})
    void theBuilderRefusesTheSameRange(int bad) {
        TollgateConfigException e = assertThrows(
                TollgateConfigException.class, () -> valid().usageDays(bad).build());
        assertTrue(e.getMessage().contains(LimitRules.USAGE_DAYS_RULE), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 400, LimitRules.USAGE_OFF})
    void theBuilderKeepsTheSameRange(int good) {
        assertEquals(good, valid().usageDays(good).build().usageDays());
    }

    /** A limit the builder takes as it is: only its usage-days decides. */
    private static Limit.Builder valid() {
        return Limit.of("billed", Limit.Algorithm.TOKEN_BUCKET).capacity(10).refill(1, java.time.Duration.ofSeconds(1));
    }
}
