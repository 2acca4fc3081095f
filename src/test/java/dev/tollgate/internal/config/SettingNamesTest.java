package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientHeader;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.redis.RedisUrl;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Unknown {@code tollgate.*} names fail, and every setting can be given as an environment variable the
 * way MicroProfile Config maps them. Environment variables appear here as the map's upper-case names,
 * which {@link PropertySource#of} resolves as MicroProfile Config's environment source does.
 */
class SettingNamesTest {

    /** The demo's properties file, as the server reads it. */
    private static Map<String, String> demo() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tollgate.limits.demo.capacity", "10");
        m.put("tollgate.limits.demo.refill-tokens", "1");
        m.put("tollgate.limits.demo-ejb.capacity", "5");
        m.put("tollgate.limits.demo-ejb.refill-tokens", "1");
        return m;
    }

    private static TollgateSettings read(Map<String, String> base, String... kv) {
        Map<String, String> m = new LinkedHashMap<>(base);
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SettingsReader.read(PropertySource.of(m));
    }

    private static String error(Map<String, String> base, String... kv) {
        return assertThrows(TollgateConfigException.class, () -> read(base, kv)).getMessage();
    }

    @Test
    void aMisspelledSettingFailsAndSuggestsTheRightOne() {
        String e = error(Map.of(), "tollgate.redis.timout", "1s");
        assertTrue(
                e.contains("tollgate.redis.timout (not a Tollgate setting; did you mean tollgate.redis.timeout?)"), e);
    }

    @Test
    void anUnknownNameIsNamedButItsValueNeverShown() {
        String e = error(Map.of(), "tollgate.redis.pasword", "hunter2", "tollgate.limits.demo.pasword", "hunter3");
        assertTrue(e.contains("tollgate.redis.pasword (not a Tollgate setting;"), e);
        assertTrue(e.contains("tollgate.limits.demo.pasword (unknown setting 'pasword'"), e);
        assertFalse(e.contains("hunter"), e);
    }

    @Test
    void concurrencyLimitsComeFromPropertiesAndVariables() {
        TollgateSettings s = read(
                Map.of("tollgate.concurrency.demo-slow.max-in-flight", "2"),
                "TOLLGATE_CONCURRENCY_DEMO_SLOW_LEASE",
                "30s",
                "TOLLGATE_CONCURRENCY_EXPORTS_MAX_IN_FLIGHT",
                "1",
                "TOLLGATE_LOCKS_DEMO_REPORT_KEEP_ALIVE",
                "true");
        assertEquals(
                Duration.ofSeconds(30),
                s.concurrencyLimit("demo-slow").orElseThrow().lease());
        assertEquals(1, s.concurrencyLimit("exports").orElseThrow().maxInFlight());
        String e = error(Map.of(), "tollgate.concurrency.reports.max-inflight", "2");
        assertTrue(e.contains("tollgate.concurrency.reports.max-inflight (unknown setting 'max-inflight'"), e);
    }

    @Test
    void lockOverridesAreKnownAndTheirMisspellingsAreNot() {
        read(Map.of(), "tollgate.locks.nightly.export.ttl", "1h", "tollgate.locks.x.at-least", "1m");
        String e = error(Map.of(), "tollgate.locks.x.tll", "1h", "tollgate.locks.ttl", "1h");
        assertTrue(
                e.contains("tollgate.locks.x.tll (lock properties are tollgate.locks.<name>.ttl, .at-least and"
                        + " .keep-alive)"),
                e);
        assertTrue(e.contains("tollgate.locks.ttl (lock properties are"), e);
    }

    @Test
    void theIssuesCaseAHyphenatedLimitSettingFromTheEnvironment() {
        TollgateSettings s = read(
                demo(),
                "TOLLGATE_LIMITS_DEMO_FAIL_OPEN",
                "false",
                "TOLLGATE_LIMITS_DEMO_REFILL_TOKENS",
                "0",
                "TOLLGATE_LIMITS_DEMO_PERSIST",
                "true");
        LimitSpec d = s.limit("demo").orElseThrow();
        assertFalse(d.failOpen());
        assertEquals(0, d.policy().refillTokens());
        assertEquals(Set.of("demo", "demo-ejb"), configured(s));
    }

    @Test
    void aHyphenatedLimitNameIsSpelledAsTheOtherSourcesSpellIt() {
        TollgateSettings s =
                read(demo(), "TOLLGATE_LIMITS_DEMO_EJB_FAIL_OPEN", "false", "TOLLGATE_LIMITS_DEMO_EJB_CAPACITY", "7");
        assertEquals(Set.of("demo", "demo-ejb"), configured(s), "no limit demo_ejb beside demo-ejb");
        assertFalse(s.limit("demo-ejb").orElseThrow().failOpen());
        assertEquals(7, s.limit("demo-ejb").orElseThrow().policy().capacity());
    }

    @Test
    void aLimitOnlyTheEnvironmentDefinesIsNamedInLowerCaseOrAsTheFilterSettingSpellsIt() {
        TollgateSettings alone = read(
                Map.of(), "TOLLGATE_LIMITS_SEARCH_API_CAPACITY", "5", "TOLLGATE_LIMITS_SEARCH_API_REFILL_TOKENS", "1");
        assertEquals(Set.of("search_api"), configured(alone));
        TollgateSettings named = read(
                Map.of(),
                "TOLLGATE_HTTP_LIMITS",
                "search-api",
                "TOLLGATE_LIMITS_SEARCH_API_CAPACITY",
                "5",
                "TOLLGATE_LIMITS_SEARCH_API_REFILL_TOKENS",
                "1");
        assertEquals(Set.of("search-api"), configured(named));
        assertEquals(List.of("search-api"), named.http().globalLimits());
    }

    @Test
    void everyLimitSettingFromTheEnvironment() {
        LimitSpec w = read(
                        Map.of("tollgate.limits.w.capacity", "1"),
                        "TOLLGATE_LIMITS_W_ALGORITHM",
                        "fixed-window",
                        "TOLLGATE_LIMITS_W_CAPACITY",
                        "60",
                        "TOLLGATE_LIMITS_W_REFILL_PERIOD",
                        "1m",
                        "TOLLGATE_LIMITS_W_COST",
                        "2",
                        "TOLLGATE_LIMITS_W_KEY",
                        "header:X-Api-Key",
                        "TOLLGATE_LIMITS_W_FAIL_OPEN",
                        "false")
                .limit("w")
                .orElseThrow();
        assertEquals(
                new LimitSpec(
                        new LimitPolicy("w", 60, 60, Duration.ofMinutes(1), 2),
                        Algorithm.FIXED_WINDOW,
                        new KeySpec.Header("X-Api-Key"),
                        false),
                w);
    }

    @Test
    void everyGlobalSettingFromTheEnvironment() throws java.io.IOException {
        java.nio.file.Path limitsFile = java.nio.file.Files.createTempFile("tollgate-limits", ".properties");
        java.nio.file.Files.writeString(limitsFile, "tollgate.limits.demo.refill-tokens=7\n");
        limitsFile.toFile().deleteOnExit();
        TollgateSettings s = read(
                demo(),
                "TOLLGATE_REDIS_URL",
                "redis://***@redis_cache:6380/1".replace("***", "u:pw"),
                "TOLLGATE_REDIS_TIMEOUT",
                "300ms",
                "TOLLGATE_REDIS_POOL_SIZE",
                "4",
                "TOLLGATE_FAIL_OPEN",
                "false",
                "TOLLGATE_HTTP_LIMITS",
                "demo",
                "TOLLGATE_HTTP_TRUSTED_PROXIES",
                "10.0.0.0/8",
                "TOLLGATE_HTTP_CLIENT_HEADER",
                "Forwarded",
                "TOLLGATE_HTTP_IPV6_PREFIX",
                "56",
                "TOLLGATE_HTTP_ALLOW_WAIT",
                "true",
                "TOLLGATE_HTTP_IDEMPOTENCY_HEADER",
                "X-Request-Id",
                "TOLLGATE_HTTP_PACING_MAX_WAIT",
                "750ms",
                "TOLLGATE_MODE",
                "shadow",
                "TOLLGATE_LOCAL_FALLBACK",
                "true",
                "TOLLGATE_LOCAL_FALLBACK_SERVERS",
                "2",
                "TOLLGATE_LOCAL_DENIALS",
                "77",
                "TOLLGATE_ADMIN_ENABLED",
                "true",
                "TOLLGATE_ADMIN_ROLE",
                "ops",
                "TOLLGATE_CONFIG_FILE",
                limitsFile.toString(),
                "TOLLGATE_CONFIG_INTERVAL",
                "2s",
                "TOLLGATE_LOCK_HOLDER",
                "report-worker-2",
                "TOLLGATE_REDIS_KEY_PREFIX",
                "shop-prod:",
                "TOLLGATE_BREAKER_FAILURES",
                "5",
                "TOLLGATE_BREAKER_DELAY",
                "2s",
                "TOLLGATE_LIMITS_DEMO_KEY_NORMALIZE",
                "trim,case-fold");
        assertEquals(Optional.of(RedisUrl.parse("redis://u:pw@redis_cache:6380/1")), s.redisUrl());
        assertEquals(Duration.ofMillis(300), s.budget());
        assertEquals(4, s.poolSize());
        assertFalse(s.failOpen());
        assertFalse(s.limit("demo").orElseThrow().failOpen(), "inherits TOLLGATE_FAIL_OPEN");
        assertEquals(
                new HttpSettings(
                        List.of("demo"),
                        List.of(Cidr.parse("10.0.0.0/8")),
                        Optional.of(ClientHeader.FORWARDED),
                        56,
                        true,
                        "X-Request-Id",
                        Duration.ofMillis(750)),
                s.http());
        LimitSpec demo = s.limit("demo").orElseThrow();
        assertEquals(dev.tollgate.internal.ratelimit.LimitMode.SHADOW, demo.mode(), "TOLLGATE_MODE");
        assertEquals(5, demo.localFallback().capacity(), "TOLLGATE_LOCAL_FALLBACK and _SERVERS");
        assertEquals(77, s.localDenials(), "TOLLGATE_LOCAL_DENIALS");
        assertEquals(new AdminSettings(true, "ops"), s.admin(), "TOLLGATE_ADMIN_ENABLED and _ROLE");
        assertEquals(
                new ReloadSettings(java.util.Optional.of(limitsFile), Duration.ofSeconds(2)),
                s.reload(),
                "TOLLGATE_CONFIG_FILE and _INTERVAL");
        assertEquals(7, s.limit("demo").orElseThrow().policy().refillTokens(), "the file's value outranks");
        assertEquals("report-worker-2", s.lockHolder(), "TOLLGATE_LOCK_HOLDER");
        assertEquals("shop-prod:", s.keyPrefix().value(), "TOLLGATE_REDIS_KEY_PREFIX");
        assertEquals(
                "trim,case-fold",
                s.limit("demo").orElseThrow().keyNormalization().configText(),
                "TOLLGATE_LIMITS_DEMO_KEY_NORMALIZE, not demo_key's normalize");
        assertEquals(5, s.guard().failureThreshold(), "TOLLGATE_BREAKER_FAILURES");
        assertEquals(Duration.ofSeconds(2), s.guard().breakerDelay(), "TOLLGATE_BREAKER_DELAY");
        assertEquals(SettingsReader.GLOBAL.size(), 23, "a new setting needs a line here");
    }

    @Test
    void lowerCaseVariablesAreMappedToo() {
        assertEquals(
                3,
                read(demo(), "tollgate_limits_demo_capacity", "3")
                        .limit("demo")
                        .orElseThrow()
                        .policy()
                        .capacity());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "TOLLGATE_REDIS_TIMOUT|did you mean TOLLGATE_REDIS_TIMEOUT (tollgate.redis.timeout)?",
                "TOLLGATE_FAILOPEN|did you mean TOLLGATE_FAIL_OPEN (tollgate.fail-open)?",
                "TOLLGATE_LIMITS_DEMO_FAIL_OPN|a limit's variables are TOLLGATE_LIMITS_<NAME>_<SETTING>, the setting one of ALGORITHM, ANCHOR, CAPACITY, COST, FAIL_OPEN, IDEMPOTENCY_WINDOW, KEY, KEY_NORMALIZE, LEASE, LOCAL_FALLBACK, MODE, PERIOD, PERSIST, PLANS, PLAN_RESOLVER, REFILL_PERIOD, REFILL_TOKENS, USAGE_DAYS, ZONE",
                "TOLLGATE_LIMITS_CAPACITY|a limit's variables are",
                "TOLLGATE_LOCKS_NIGHTLY_TIL|a lock's variables are TOLLGATE_LOCKS_<NAME>_TTL, _AT_LEAST and _KEEP_ALIVE",
                "TOLLGATE_CONCURRENCY_REPORTS_MAX|a concurrency limit's variables are TOLLGATE_CONCURRENCY_<NAME>_<SETTING>",
                "TOLLGATE_REDIS_WHATEVER|see the configuration reference, configuration.md",
                "TOLLGATE_HTTP_CLIENT_HEADERS|did you mean TOLLGATE_HTTP_CLIENT_HEADER (tollgate.http.client-header)?",
            })
    void aVariableThatNamesNoSettingFails(String variable, String hint) {
        String e = error(demo(), variable, "secret-value");
        assertTrue(e.contains(variable + " (an environment variable that names no Tollgate setting; " + hint), e);
        assertFalse(e.contains("secret-value"), e);
    }

    @Test
    void variablesOutsideTollgatesSectionsAndLockVariablesAreNotRefused() {
        read(
                demo(),
                "TOLLGATE_SERVICE_HOST",
                "10.96.0.12",
                "TOLLGATE_SERVICE_PORT",
                "9080",
                "TOLLGATE_SERVICE_PORT_HTTP",
                "9080",
                "TOLLGATE_PORT",
                "tcp://10.96.0.12:9080",
                "TOLLGATE_PORT_9080_TCP_ADDR",
                "10.96.0.12",
                "TOLLGATE_LOCKS_DEMO_REPORT_TTL",
                "1m",
                "TOLLGATE_LOCKS_DEMO_REPORT_AT_LEAST",
                "1s",
                "PATH",
                "/usr/bin",
                "OTHER_TOLLGATE_THING",
                "x");
    }

    @Test
    void lockOverridesAreReadFromTheEnvironmentByTheLocksName() {
        PropertySource env = PropertySource.of(Map.of("TOLLGATE_LOCKS_DEMO_REPORT_TTL", "5m"));
        assertEquals(Optional.of("5m"), env.get("tollgate.locks.demo-report.ttl"));
    }

    /** The limits configured: all but the built-in pacing limit. */
    private static Set<String> configured(TollgateSettings s) {
        Set<String> names = new java.util.TreeSet<>(s.limits().keySet());
        assertTrue(names.remove(PacingLimit.NAME), "the built-in pacing limit is there");
        return names;
    }
}
