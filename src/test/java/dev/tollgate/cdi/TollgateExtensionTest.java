package dev.tollgate.cdi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.config.PropertySource;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.config.TollgateSettings;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TollgateExtensionTest {

    private final TollgateSettings settings = SettingsReader.read(PropertySource.of(Map.of(
            "tollgate.limits.api.capacity", "10",
            "tollgate.limits.api.refill-tokens", "1")));

    @Test
    void annotationNamingAnUnconfiguredLimitIsReportedWithTheMethod() {
        List<String> problems =
                TollgateExtension.problems(settings, Map.of("com.shop.Orders#place", new String[] {"ordres"}));
        assertEquals(
                List.of("@RateLimited(\"ordres\") on com.shop.Orders#place: no limit named 'ordres' is configured"
                        + " (set tollgate.limits.ordres.capacity and .refill-tokens)"),
                problems);
    }

    @Test
    void annotationNamingNoLimitIsReported() {
        assertTrue(TollgateExtension.problems(settings, Map.of("com.shop.Orders", new String[0]))
                .get(0)
                .contains("names no limit"));
    }

    @Test
    void configuredLimitsPass() {
        assertEquals(
                List.of(), TollgateExtension.problems(settings, Map.of("com.shop.Orders#list", new String[] {"api"})));
    }

    @Test
    void aLimitTheEnvironmentSpelledOtherwiseIsPointedOut() {
        TollgateSettings env = SettingsReader.read(PropertySource.of(
                Map.of("TOLLGATE_LIMITS_SEARCH_API_CAPACITY", "10", "TOLLGATE_LIMITS_SEARCH_API_REFILL_TOKENS", "1")));
        List<String> problems =
                TollgateExtension.problems(env, Map.of("com.shop.Search#find", new String[] {"search-api"}));
        assertEquals(1, problems.size());
        assertTrue(
                problems.get(0)
                        .endsWith("; environment variables TOLLGATE_LIMITS_SEARCH_API_* define 'search_api': to spell"
                                + " it 'search-api', name it in tollgate.http.limits or give one of its settings in a"
                                + " properties file"),
                problems.get(0));
    }
}
