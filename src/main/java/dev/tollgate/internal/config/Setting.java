package dev.tollgate.internal.config;

import dev.tollgate.Limit;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.http.ClientAddresses;
import dev.tollgate.internal.lock.LockNames;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.redis.KeyPrefix;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Every {@code tollgate.*} setting, one row each: its name, its scope, its default as the configuration
 * reference says it (the reader parses it: it is the default), and the rule of its values, stated here or,
 * for a limit's, in {@link LimitRules}; a whole number's or a duration's range is the row's {@link Range},
 * whose rule text it writes.
 * The names Tollgate accepts ({@link SettingsReader#GLOBAL}, {@link SettingNames}' per-limit,
 * per-concurrency-limit and per-lock names, a shadow candidate's {@link LimitModes#CANDIDATE_SETTINGS}),
 * and so the environment variables it matches, come from here; {@code SettingRegistryTest} checks that the
 * table of {@code configuration.md} lists exactly these names with these defaults.
 */
enum Setting {
    REDIS_URL(Scope.GLOBAL, "tollgate.redis.url", "unset"),
    REDIS_TIMEOUT(
            Scope.GLOBAL,
            "tollgate.redis.timeout",
            GuardSettings.DEFAULT_BUDGET_MILLIS + "ms",
            Range.duration(Duration.ofMillis(1), Duration.ofMinutes(1))),
    REDIS_POOL_SIZE(Scope.GLOBAL, "tollgate.redis.pool-size", "" + GuardSettings.DEFAULT_WORKERS, Range.positive()),
    REDIS_KEY_PREFIX(Scope.GLOBAL, "tollgate.redis.key-prefix", "empty", KeyPrefix.RULE),
    BREAKER_FAILURES(
            Scope.GLOBAL,
            "tollgate.breaker.failures",
            "" + GuardSettings.DEFAULT_FAILURE_THRESHOLD,
            Range.whole(1, 1000)),
    BREAKER_DELAY(
            Scope.GLOBAL,
            "tollgate.breaker.delay",
            GuardSettings.DEFAULT_BREAKER_DELAY_MILLIS + "ms",
            Range.duration(Duration.ZERO, Duration.ofMinutes(10))),
    FAIL_OPEN(Scope.GLOBAL, "tollgate.fail-open", "true", SettingsReader.FLAG_RULE),
    MODE(Scope.GLOBAL, "tollgate.mode", "enforce", "enforce or shadow"),
    LOCAL_FALLBACK(Scope.GLOBAL, "tollgate.local-fallback", "false", SettingsReader.FLAG_RULE),
    LOCAL_FALLBACK_SERVERS(Scope.GLOBAL, "tollgate.local-fallback-servers", Setting.AUTO, Range.wholeOrAuto(1, 1000)),
    LOCAL_DENIALS(Scope.GLOBAL, "tollgate.local-denials", "10000", Range.wholeOrOff(10_000_000)),
    ADMIN_ENABLED(Scope.GLOBAL, "tollgate.admin.enabled", "false", SettingsReader.FLAG_RULE),
    ADMIN_ROLE(
            Scope.GLOBAL,
            "tollgate.admin.role",
            AdminSettings.DEFAULT_ROLE,
            "a security role name: " + AdminSettings.ROLE_RULE),
    CONFIG_FILE(Scope.GLOBAL, "tollgate.config.file", "unset"),
    CONFIG_INTERVAL(
            Scope.GLOBAL,
            "tollgate.config.interval",
            Durations.format(ReloadSettings.DEFAULT_INTERVAL),
            Range.duration(Duration.ofMillis(100), Duration.ofHours(1))),
    LOCK_HOLDER(
            Scope.GLOBAL,
            "tollgate.lock-holder",
            "<pid>@<host> of the JVM",
            "a holder's name: " + LockNames.HOLDER_RULE),
    HTTP_LIMITS(Scope.GLOBAL, "tollgate.http.limits", "empty"),
    HTTP_TRUSTED_PROXIES(Scope.GLOBAL, "tollgate.http.trusted-proxies", "empty"),
    HTTP_CLIENT_HEADER(
            Scope.GLOBAL,
            "tollgate.http.client-header",
            "none; required with trusted-proxies",
            "X-Forwarded-For or Forwarded"),
    HTTP_IPV6_PREFIX(
            Scope.GLOBAL,
            "tollgate.http.ipv6-prefix",
            "64",
            Range.whole(ClientAddresses.SHORTEST_IPV6_PREFIX, ClientAddresses.LONGEST_IPV6_PREFIX)),
    HTTP_ALLOW_WAIT(Scope.GLOBAL, "tollgate.http.allow-wait", "false", SettingsReader.FLAG_RULE),
    HTTP_IDEMPOTENCY_HEADER(
            Scope.GLOBAL,
            "tollgate.http.idempotency-header",
            HttpSettings.DEFAULT_IDEMPOTENCY_HEADER,
            HttpSettings.IDEMPOTENCY_HEADER_RULE),
    HTTP_PACING_MAX_WAIT(
            Scope.GLOBAL,
            "tollgate.http.pacing-max-wait",
            Durations.format(HttpSettings.DEFAULT_PACING_MAX_WAIT),
            Range.duration(Duration.ZERO, HttpSettings.LONGEST_PACING_MAX_WAIT)),

    ALGORITHM(
            Scope.CANDIDATE,
            "algorithm",
            Limit.Algorithm.TOKEN_BUCKET.configName(),
            "token-bucket, fixed-window, sliding-window or calendar"),
    CAPACITY(Scope.CANDIDATE, "capacity", "required", LimitRules.capacityRule(null)),
    REFILL_TOKENS(Scope.CANDIDATE, "refill-tokens", "required for token-bucket", LimitRules.REFILL_TOKENS_RULE),
    REFILL_PERIOD(Scope.CANDIDATE, "refill-period", "1s", LimitRules.REFILL_PERIOD_RULE),
    COST(Scope.CANDIDATE, "cost", "1", LimitRules.costRule(null)),
    PERSIST(Scope.CANDIDATE, "persist", "false", SettingsReader.FLAG_RULE),
    PERIOD(Scope.CANDIDATE, "period", "required for calendar", LimitRules.PERIOD_UNIT_RULE),
    ZONE(Scope.CANDIDATE, "zone", "UTC", LimitRules.ZONE_RULE),
    ANCHOR(Scope.CANDIDATE, "anchor", "1", LimitRules.ANCHOR_RULE),
    KEY(Scope.LIMIT, "key", "ip", dev.tollgate.Key.RULE),
    KEY_NORMALIZE(Scope.LIMIT, "key-normalize", KeyNormalization.DEFAULT.configText(), KeyNormalization.RULE),
    LIMIT_FAIL_OPEN(Scope.LIMIT, "fail-open", "tollgate.fail-open", SettingsReader.FLAG_RULE),
    PLANS(Scope.LIMIT, "plans", "none"),
    PLAN_RESOLVER(Scope.LIMIT, "plan-resolver", "none; required with plans"),
    LIMIT_MODE(Scope.LIMIT, "mode", "tollgate.mode", MODE.rule),
    LIMIT_LOCAL_FALLBACK(Scope.LIMIT, "local-fallback", "tollgate.local-fallback", SettingsReader.FLAG_RULE),
    LIMIT_LEASE(Scope.LIMIT, "lease", "off", LimitRules.LIMIT_LEASE_RULE),
    IDEMPOTENCY_WINDOW(Scope.LIMIT, "idempotency-window", "off", LimitRules.IDEMPOTENCY_WINDOW_RULE),
    USAGE_DAYS(Scope.LIMIT, "usage-days", "off", LimitRules.USAGE_DAYS_RULE),

    MAX_IN_FLIGHT(Scope.CONCURRENCY, "max-in-flight", "required", LimitRules.MAX_IN_FLIGHT_RULE),
    CONCURRENCY_KEY(Scope.CONCURRENCY, "key", "global", dev.tollgate.Key.RULE),
    LEASE(Scope.CONCURRENCY, "lease", "10s", LimitRules.LEASE_RULE),
    CONCURRENCY_FAIL_OPEN(Scope.CONCURRENCY, "fail-open", "tollgate.fail-open", SettingsReader.FLAG_RULE),

    TTL(Scope.LOCK, "ttl", "the annotation's"),
    AT_LEAST(Scope.LOCK, "at-least", "the annotation's"),
    KEEP_ALIVE(Scope.LOCK, "keep-alive", "the annotation's", SettingsReader.FLAG_RULE);

    /** The value of a setting learned while Tollgate runs rather than given ({@code local-fallback-servers}). */
    static final String AUTO = "auto";

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
    private final Range range;

    /** A setting whose parser says what its values may be. */
    Setting(Scope scope, String name, String defaultText) {
        this(scope, name, defaultText, null, null);
    }

    Setting(Scope scope, String name, String defaultText, String rule) {
        this(scope, name, defaultText, rule, null);
    }

    /** A whole number or a duration within {@code range}, whose rule says so (a duration's with its default as example). */
    Setting(Scope scope, String name, String defaultText, Range range) {
        this(scope, name, defaultText, range.rule(defaultText), range);
    }

    private Setting(Scope scope, String name, String defaultText, String rule, Range range) {
        this.scope = scope;
        this.name = name;
        this.defaultText = defaultText;
        this.rule = rule;
        this.range = range;
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

    /** {@code text} as this whole-number setting; {@link IllegalArgumentException} (the rule says why) outside its range. */
    int whole(String text) {
        long n = Integer.parseInt(text);
        if (n < range.min() || n > range.max()) {
            throw new IllegalArgumentException();
        }
        return (int) n;
    }

    /** {@code text} as this whole-number setting that may be {@value #AUTO} (then 0). */
    int wholeOrAuto(String text) {
        return AUTO.equalsIgnoreCase(text.trim()) ? 0 : whole(text);
    }

    /** {@code text} as this duration setting; {@link IllegalArgumentException} outside its range. */
    Duration duration(String text) {
        Duration d = Durations.parse(text);
        if (d.compareTo(Duration.ofMillis(range.min())) < 0 || d.compareTo(Duration.ofMillis(range.max())) > 0) {
            throw new IllegalArgumentException();
        }
        return d;
    }

    /** The shortest this duration setting may be. */
    Duration shortest() {
        return Duration.ofMillis(range.min());
    }

    /**
     * The bounds of a whole-number or a duration setting (in milliseconds), both included, and the rule
     * that says them.
     */
    record Range(long min, long max, boolean millis, String form) {

        /** A whole number from {@code min} to {@code max}. */
        static Range whole(long min, long max) {
            return new Range(min, max, false, "a whole number from " + min + " to " + max);
        }

        /** {@value Setting#AUTO} or a whole number from {@code min} to {@code max}. */
        static Range wholeOrAuto(long min, long max) {
            return new Range(min, max, false, AUTO + " or a whole number from " + min + " to " + max);
        }

        /** Any whole number above zero. */
        static Range positive() {
            return new Range(1, Integer.MAX_VALUE, false, "a whole number > 0");
        }

        /** A whole number up to {@code max}, where 0 turns it off. */
        static Range wholeOrOff(long max) {
            return new Range(0, max, false, "a whole number from 0 (off) to " + max);
        }

        /** A duration from {@code min} to {@code max}, whole milliseconds. */
        static Range duration(Duration min, Duration max) {
            return new Range(min.toMillis(), max.toMillis(), true, "a duration from " + say(min) + " to " + say(max));
        }

        String rule(String defaultText) {
            return millis ? form + " such as " + defaultText : form;
        }

        private static String say(Duration d) {
            return d.isZero() ? "0ms" : Durations.format(d);
        }
    }

    /** The range of a whole-number or duration setting; null for any other. */
    Range range() {
        return range;
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
