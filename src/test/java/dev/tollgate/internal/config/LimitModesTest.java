package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Modes, shadow candidates and local fallbacks as settings: read, defaulted, refused with their names. */
class LimitModesTest {

    private static TollgateSettings read(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tollgate.limits.api.capacity", "10");
        m.put("tollgate.limits.api.refill-tokens", "2");
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SettingsReader.read(PropertySource.of(m));
    }

    private static String error(String... kv) {
        return assertThrows(TollgateConfigException.class, () -> read(kv)).getMessage();
    }

    private static LimitSpec api(String... kv) {
        return read(kv).limit("api").orElseThrow();
    }

    @Test
    void limitsEnforceWithoutACandidateOrAFallbackByDefault() {
        LimitSpec api = api();
        assertEquals(LimitMode.ENFORCE, api.mode());
        assertNull(api.candidate());
        assertNull(api.localFallback());
    }

    @Test
    void badModesAreNamedWithTheirValues() {
        String e = error("tollgate.mode", "dry-run", "tollgate.limits.api.mode", "off");
        assertTrue(e.contains("tollgate.mode=dry-run (expected enforce or shadow)"), e);
        assertTrue(e.contains("tollgate.limits.api.mode=off (expected enforce or shadow)"), e);
    }

    @Test
    void aCandidateTakesOnlyPolicySettings() {
        String e = error("tollgate.limits.api.shadow.key", "principal", "tollgate.limits.api.shadow.capacity", "0");
        assertTrue(e.contains("tollgate.limits.api.shadow.key (unknown setting 'key'; a shadow candidate takes"), e);
        assertTrue(e.contains("tollgate.limits.api.shadow.capacity=0 (expected a whole number from 1"), e);
    }

    @Test
    void aCandidateFromEnvironmentVariables() {
        LimitSpec api = api("TOLLGATE_LIMITS_API_SHADOW_CAPACITY", "4", "TOLLGATE_LIMITS_API_MODE", "shadow");
        assertEquals(LimitMode.SHADOW, api.mode());
        assertEquals(4, api.candidate().policy().capacity());
        assertEquals(2, api.candidate().policy().refillTokens());
    }

    @Test
    void aLimitNamedLikeACandidateKeepsItsName() {
        TollgateSettings s = read(
                "tollgate.limits.api-shadow.capacity", "3",
                "TOLLGATE_LIMITS_API_SHADOW_REFILL_TOKENS", "1");
        assertEquals(1, s.limit("api-shadow").orElseThrow().policy().refillTokens());
        assertNull(s.limit("api").orElseThrow().candidate());
    }

    @Test
    void theLocalFallbackSharesTheCapacityBetweenServers() {
        LimitSpec whole = api("tollgate.local-fallback", "true");
        assertEquals(new LimitPolicy("api", 10, 2, Duration.ofSeconds(1), 1), whole.localFallback());
        LimitSpec third = api("tollgate.limits.api.local-fallback", "true", "tollgate.local-fallback-servers", "3");
        assertEquals(new LimitPolicy("api", 4, 2, Duration.ofSeconds(3), 1), third.localFallback());
        assertNull(api("tollgate.local-fallback", "true", "tollgate.limits.api.local-fallback", "false")
                .localFallback());
    }

    @Test
    void badFallbackSettingsAreNamed() {
        String e = error("tollgate.local-fallback", "yes", "tollgate.local-fallback-servers", "0");
        assertTrue(e.contains("tollgate.local-fallback=yes (expected true or false)"), e);
        assertTrue(e.contains("tollgate.local-fallback-servers=0 (expected auto or a whole number from 1 to 1000)"), e);
    }

    @Test
    void globalSettingsFromEnvironmentVariables() {
        TollgateSettings s = read("TOLLGATE_MODE", "shadow", "TOLLGATE_LOCAL_FALLBACK", "true");
        assertEquals(LimitMode.SHADOW, s.limit("api").orElseThrow().mode());
        String e = error("TOLLGATE_LOCAL_FALLBAK", "true");
        assertTrue(e.contains("TOLLGATE_LOCAL_FALLBAK (an environment variable that names no Tollgate setting"), e);
    }

    @Test
    void heldDenialsAreBoundedAndCanBeTurnedOff() {
        assertEquals(10_000, read().localDenials());
        assertEquals(0, read("tollgate.local-denials", "0").localDenials());
        String e = error("tollgate.local-denials", "-1");
        assertTrue(e.contains("tollgate.local-denials=-1 (expected a whole number from 0 (off) to 10000000)"), e);
    }

    @Test
    void theAdminResourceIsOffUnlessEnabledAndItsRoleIsANameNotAnExpression() {
        assertEquals(AdminSettings.disabled(), read().admin());
        assertEquals(
                new AdminSettings(true, "ops"),
                read("tollgate.admin.enabled", "true", "tollgate.admin.role", "ops")
                        .admin());
        String e = error("tollgate.admin.enabled", "on", "tollgate.admin.role", "a b");
        assertTrue(e.contains("tollgate.admin.enabled=on (expected true or false)"), e);
        assertTrue(e.contains("tollgate.admin.role=a b (expected a security role name"), e);
    }
}
