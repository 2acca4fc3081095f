package dev.tollgate.internal.config;

import dev.tollgate.Limit;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every {@code tollgate.*} setting, one row each: its name, its scope, its default as the configuration
 * reference says it, and the rule of its values where one is stated once elsewhere ({@link LimitRules}).
 * The names Tollgate accepts ({@link SettingsReader#GLOBAL}, {@link SettingNames}' per-limit,
 * per-concurrency-limit and per-lock names, a shadow candidate's {@link LimitModes#CANDIDATE_SETTINGS}),
 * and so the environment variables it matches, come from here; {@code SettingRegistryTest} checks that the
 * table of {@code configuration.md} lists exactly these names with these defaults.
 */
enum Setting {
    REDIS_URL(Scope.GLOBAL, "tollgate.redis.url", "unset", null),
    REDIS_TIMEOUT(Scope.GLOBAL, "tollgate.redis.timeout", "250ms", "between 1ms and 1m"),
    REDIS_POOL_SIZE(Scope.GLOBAL, "tollgate.redis.pool-size", "16", "a whole number > 0"),
    REDIS_KEY_PREFIX(Scope.GLOBAL, "tollgate.redis.key-prefix", "empty", null),
    BREAKER_FAILURES(Scope.GLOBAL, "tollgate.breaker.failures", "3", SettingsReader.FAILURES_RULE),
    BREAKER_DELAY(Scope.GLOBAL, "tollgate.breaker.delay", "500ms", SettingsReader.DELAY_RULE),
    FAIL_OPEN(Scope.GLOBAL, "tollgate.fail-open", "true", SettingsReader.FLAG_RULE),
    MODE(Scope.GLOBAL, "tollgate.mode", "enforce", "enforce or shadow"),
    LOCAL_FALLBACK(Scope.GLOBAL, "tollgate.local-fallback", "false", SettingsReader.FLAG_RULE),
    LOCAL_FALLBACK_SERVERS(Scope.GLOBAL, "tollgate.local-fallback-servers", "1", "a whole number from 1 to 1000"),
    LOCAL_DENIALS(Scope.GLOBAL, "tollgate.local-denials", "10000", "a whole number from 0 (off) to 10000000"),
    ADMIN_ENABLED(Scope.GLOBAL, "tollgate.admin.enabled", "false", SettingsReader.FLAG_RULE),
    ADMIN_ROLE(Scope.GLOBAL, "tollgate.admin.role", AdminSettings.DEFAULT_ROLE, null),
    CONFIG_FILE(Scope.GLOBAL, "tollgate.config.file", "unset", null),
    CONFIG_INTERVAL(Scope.GLOBAL, "tollgate.config.interval", "5s", "a duration from 100ms to 1h such as 5s"),
    LOCK_HOLDER(Scope.GLOBAL, "tollgate.lock-holder", "<pid>@<host> of the JVM", null),
    HTTP_LIMITS(Scope.GLOBAL, "tollgate.http.limits", "empty", null),
    HTTP_TRUSTED_PROXIES(Scope.GLOBAL, "tollgate.http.trusted-proxies", "empty", null),
    HTTP_CLIENT_HEADER(
            Scope.GLOBAL,
            "tollgate.http.client-header",
            "none; required with trusted-proxies",
            "X-Forwarded-For or Forwarded"),
    HTTP_IPV6_PREFIX(Scope.GLOBAL, "tollgate.http.ipv6-prefix", "64", "a whole number from 1 to 128"),
    HTTP_ALLOW_WAIT(Scope.GLOBAL, "tollgate.http.allow-wait", "false", SettingsReader.FLAG_RULE),

    ALGORITHM(Scope.CANDIDATE, "algorithm", Limit.Algorithm.TOKEN_BUCKET.configName(), null),
    CAPACITY(Scope.CANDIDATE, "capacity", "required", LimitRules.capacityRule(null)),
    REFILL_TOKENS(Scope.CANDIDATE, "refill-tokens", "required for token-bucket", LimitRules.REFILL_TOKENS_RULE),
    REFILL_PERIOD(Scope.CANDIDATE, "refill-period", "1s", LimitRules.REFILL_PERIOD_RULE),
    COST(Scope.CANDIDATE, "cost", "1", LimitRules.costRule(null)),
    PERSIST(Scope.CANDIDATE, "persist", "false", SettingsReader.FLAG_RULE),
    KEY(Scope.LIMIT, "key", "ip", dev.tollgate.Key.RULE),
    KEY_NORMALIZE(Scope.LIMIT, "key-normalize", KeyNormalization.DEFAULT.configText(), KeyNormalization.RULE),
    LIMIT_FAIL_OPEN(Scope.LIMIT, "fail-open", "tollgate.fail-open", SettingsReader.FLAG_RULE),
    PLANS(Scope.LIMIT, "plans", "none", null),
    PLAN_RESOLVER(Scope.LIMIT, "plan-resolver", "none; required with plans", null),
    LIMIT_MODE(Scope.LIMIT, "mode", "tollgate.mode", "enforce or shadow"),
    LIMIT_LOCAL_FALLBACK(Scope.LIMIT, "local-fallback", "tollgate.local-fallback", SettingsReader.FLAG_RULE),

    MAX_IN_FLIGHT(Scope.CONCURRENCY, "max-in-flight", "required", LimitRules.MAX_IN_FLIGHT_RULE),
    CONCURRENCY_KEY(Scope.CONCURRENCY, "key", "global", dev.tollgate.Key.RULE),
    LEASE(Scope.CONCURRENCY, "lease", "10s", LimitRules.LEASE_RULE),
    CONCURRENCY_FAIL_OPEN(Scope.CONCURRENCY, "fail-open", "tollgate.fail-open", SettingsReader.FLAG_RULE),

    TTL(Scope.LOCK, "ttl", "the annotation's", null),
    AT_LEAST(Scope.LOCK, "at-least", "the annotation's", null),
    KEEP_ALIVE(Scope.LOCK, "keep-alive", "the annotation's", SettingsReader.FLAG_RULE);

    /** Where a setting applies. */
    enum Scope {
        /** Once: {@code tollgate.<name>}. */
        GLOBAL(""),
        /** Per limit, and a shadow candidate may give it too: {@code tollgate.limits.<name>.[shadow.]<setting>}. */
        CANDIDATE("tollgate.limits.<name>."),
        /** Per limit: {@code tollgate.limits.<name>.<setting>}. */
        LIMIT("tollgate.limits.<name>."),
        /** Per concurrency limit: {@code tollgate.concurrency.<name>.<setting>}. */
        CONCURRENCY("tollgate.concurrency.<name>."),
        /** Per lock, over its annotation: {@code tollgate.locks.<name>.<setting>}. */
        LOCK("tollgate.locks.<name>.");

        private final String prefix;

        Scope(String prefix) {
            this.prefix = prefix;
        }
    }

    private final Scope scope;
    private final String name;
    private final String defaultText;
    private final String rule;

    Setting(Scope scope, String name, String defaultText, String rule) {
        this.scope = scope;
        this.name = name;
        this.defaultText = defaultText;
        this.rule = rule;
    }

    /** Its name within its scope: the whole property of a global one, the setting of a limit's ({@code capacity}). */
    String key() {
        return name;
    }

    Scope scope() {
        return scope;
    }

    /** The property as the reference writes it: {@code tollgate.limits.<name>.capacity}. */
    String property() {
        return scope.prefix + name;
    }

    /** The default as the reference says it ({@code 250ms}, {@code required}, {@code tollgate.fail-open}). */
    String defaultText() {
        return defaultText;
    }

    /** What its values may be, when stated; null when its parser says it. */
    String rule() {
        return rule;
    }

    /** The names of the settings of {@code scopes}. */
    static Set<String> names(Scope... scopes) {
        Set<Scope> wanted = Set.of(scopes);
        return Arrays.stream(values())
                .filter(s -> wanted.contains(s.scope))
                .map(s -> s.name)
                .collect(Collectors.toUnmodifiableSet());
    }
}
