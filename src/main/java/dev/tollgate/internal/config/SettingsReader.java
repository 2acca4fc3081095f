package dev.tollgate.internal.config;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.ConfigProblem;
import dev.tollgate.Key;
import dev.tollgate.Limit;
import dev.tollgate.LimitRules;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientHeader;
import dev.tollgate.internal.lock.LockNames;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.Plans;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.RedisUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads and validates {@code tollgate.*} settings. Every problem is collected, and all of them are
 * reported in one {@link TollgateConfigException} naming each property and its value.
 */
public final class SettingsReader {

    public static final String REDIS_URL = Setting.REDIS_URL.property();
    public static final String REDIS_TIMEOUT = Setting.REDIS_TIMEOUT.property();
    public static final String REDIS_POOL_SIZE = Setting.REDIS_POOL_SIZE.property();
    public static final String REDIS_KEY_PREFIX = Setting.REDIS_KEY_PREFIX.property();
    public static final String BREAKER_FAILURES = Setting.BREAKER_FAILURES.property();
    public static final String BREAKER_DELAY = Setting.BREAKER_DELAY.property();
    public static final String FAIL_OPEN = Setting.FAIL_OPEN.property();
    public static final String LIMITS = "tollgate.limits.";
    public static final String HTTP_LIMITS = Setting.HTTP_LIMITS.property();
    public static final String HTTP_TRUSTED_PROXIES = Setting.HTTP_TRUSTED_PROXIES.property();
    public static final String HTTP_IPV6_PREFIX = Setting.HTTP_IPV6_PREFIX.property();
    public static final String HTTP_CLIENT_HEADER = Setting.HTTP_CLIENT_HEADER.property();
    public static final String HTTP_ALLOW_WAIT = Setting.HTTP_ALLOW_WAIT.property();
    public static final String LOCKS = "tollgate.locks.";
    public static final String CONCURRENCY = "tollgate.concurrency.";
    public static final String MODE = Setting.MODE.property();
    public static final String LOCAL_FALLBACK = Setting.LOCAL_FALLBACK.property();
    public static final String LOCAL_FALLBACK_SERVERS = Setting.LOCAL_FALLBACK_SERVERS.property();
    public static final String LOCAL_DENIALS = Setting.LOCAL_DENIALS.property();
    public static final String ADMIN_ENABLED = Setting.ADMIN_ENABLED.property();
    public static final String ADMIN_ROLE = Setting.ADMIN_ROLE.property();
    public static final String CONFIG_FILE = Setting.CONFIG_FILE.property();
    public static final String CONFIG_INTERVAL = Setting.CONFIG_INTERVAL.property();
    public static final String LOCK_HOLDER = Setting.LOCK_HOLDER.property();
    /** A limit's shadow candidate: {@code tollgate.limits.<name>.shadow.<setting>}. */
    public static final String SHADOW = "shadow.";

    /** Every setting that is not per limit or per lock ({@link Setting}): any other {@code tollgate.*} name is refused. */
    static final Set<String> GLOBAL = Setting.names(Setting.Scope.GLOBAL);

    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(GuardSettings.DEFAULT_BUDGET_MILLIS);
    static final int DEFAULT_POOL_SIZE = GuardSettings.DEFAULT_WORKERS;
    static final int DEFAULT_LOCAL_DENIALS = 10_000;

    private static final String REDIS_URL_FORMS = "redis://[user:password@]host:port[/db],"
            + " redis-cluster://[user:password@]host:port,host:port,..."
            + " or redis-sentinel://[user:password@]host:port,host:port,.../<master-name>[/db]"
            + " (rediss, rediss-cluster, rediss-sentinel for TLS)";

    /** Where values are read: the settings, or while a candidate is read, its view of them. */
    private PropertySource source;

    private final List<String> errors = new ArrayList<>();
    private final Set<String> limitNames = new TreeSet<>();
    private final Set<String> concurrencyNames = new TreeSet<>();
    private final Set<String> candidateNames = new TreeSet<>();

    private SettingsReader(PropertySource source) {
        this.source = source;
    }

    /** The validated settings, or a {@link TollgateConfigException} listing every problem. */
    public static TollgateSettings read(PropertySource source) {
        Reading r = check(source);
        return r.settings().orElseThrow(() -> TollgateConfigException.of(r.problems()));
    }

    /**
     * Everything {@link #read} finds, problems included, without throwing: for a deployment check that
     * reports the settings' problems together with the annotations'.
     *
     * @param settings present when there is no problem
     * @param problems one line per problem, naming the property and its value
     * @param definedLimits every limit name the properties mention, well or badly defined
     * @param limits the limits that are well defined
     * @param definedConcurrency every concurrency limit name the properties mention
     */
    public record Reading(
            Optional<TollgateSettings> settings,
            List<String> problems,
            Set<String> definedLimits,
            Map<String, LimitSpec> limits,
            Set<String> definedConcurrency) {

        public Reading {
            problems = List.copyOf(problems);
            definedLimits = Set.copyOf(definedLimits);
            limits = Map.copyOf(limits);
            definedConcurrency = Set.copyOf(definedConcurrency);
        }
    }

    /**
     * Reads every setting and reports every problem; see {@link Reading}. The limits of {@code
     * tollgate.config.file}, when set, outrank every other source.
     */
    public static Reading check(PropertySource source) {
        return check(source, LimitsFile::read);
    }

    /** As {@link #check(PropertySource)}, with the limits file as {@code file} reads it (a reload's version). */
    static Reading check(PropertySource source, Function<java.nio.file.Path, LimitsFile.Read> file) {
        SettingsReader reader = new SettingsReader(source);
        reader.overlayLimitsFile(file);
        TollgateSettings settings = reader.readAll();
        return new Reading(
                reader.errors.isEmpty() ? Optional.of(settings) : Optional.empty(),
                reader.errors,
                reader.limitNames,
                settings.limits(),
                reader.concurrencyNames);
    }

    private ReloadSettings reload = ReloadSettings.none();

    /** Puts the limits file's settings over every other source (the name and interval from the others). */
    private void overlayLimitsFile(Function<java.nio.file.Path, LimitsFile.Read> files) {
        java.time.Duration interval =
                value(CONFIG_INTERVAL, ReloadSettings.DEFAULT_INTERVAL, Durations::parse, INTERVAL_RULE);
        if (interval.compareTo(java.time.Duration.ofMillis(100)) < 0
                || interval.compareTo(java.time.Duration.ofHours(1)) > 0) {
            error(CONFIG_INTERVAL, source.get(CONFIG_INTERVAL).orElse("").trim(), INTERVAL_RULE);
            interval = ReloadSettings.DEFAULT_INTERVAL;
        }
        Optional<String> file = source.get(CONFIG_FILE).map(String::trim).filter(f -> !f.isEmpty());
        if (file.isEmpty()) {
            reload = new ReloadSettings(Optional.empty(), interval);
            return;
        }
        java.nio.file.Path path = java.nio.file.Path.of(file.get());
        LimitsFile.Read read = files.apply(path);
        errors.addAll(read.problems());
        source = LimitsFile.over(source, read.values());
        reload = new ReloadSettings(Optional.of(path), interval);
    }

    private static final String INTERVAL_RULE = Setting.CONFIG_INTERVAL.rule();

    /** Every setting, with each bad value's default in its place; {@link #errors} lists what was bad. */
    private TollgateSettings readAll() {
        Optional<RedisUrl> url = source.get(REDIS_URL)
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .flatMap(this::redisUrl);
        Duration budget = readBudget();
        int pool = value(REDIS_POOL_SIZE, DEFAULT_POOL_SIZE, Integer::parseInt, Setting.REDIS_POOL_SIZE.rule());
        if (pool < 1) {
            error(REDIS_POOL_SIZE, Integer.toString(pool), Setting.REDIS_POOL_SIZE.rule());
            pool = DEFAULT_POOL_SIZE;
        }
        boolean failOpen = flag(FAIL_OPEN, true);
        Map<String, LimitSpec> limits = readLimits(failOpen, readModes());
        HttpSettings http = readHttp();
        Map<String, ConcurrencySpec> concurrency = readConcurrency(failOpen);
        int denials = value(LOCAL_DENIALS, DEFAULT_LOCAL_DENIALS, Integer::parseInt, DENIALS_RULE);
        if (denials < 0 || denials > 10_000_000) {
            error(LOCAL_DENIALS, Integer.toString(denials), DENIALS_RULE);
            denials = DEFAULT_LOCAL_DENIALS;
        }
        Map<String, Plans> plans = PlanSettings.read(source, limitNames, limits, errors);
        return new TollgateSettings(
                url,
                readBreaker(GuardSettings.defaults(budget, pool)),
                failOpen,
                limits,
                http,
                concurrency,
                denials,
                plans,
                readAdmin(),
                reload,
                value(
                        LOCK_HOLDER,
                        LockNames.thisProcess(),
                        LockNames::checkHolder,
                        "a holder's name: 1-128 printable ASCII characters without spaces"),
                value(REDIS_KEY_PREFIX, KeyPrefix.NONE, SettingsReader::keyPrefix, KeyPrefix.RULE));
    }

    /**
     * {@code tollgate.redis.timeout} and {@code tollgate.breaker.*} alone (the pool's default beside them),
     * for the Fault Tolerance timeout and breaker that follow them: each one's default when unset or
     * invalid ({@link #read} reports an invalid value).
     */
    public static GuardSettings guard(PropertySource source) {
        SettingsReader r = new SettingsReader(source);
        return r.readBreaker(GuardSettings.defaults(r.readBudget(), DEFAULT_POOL_SIZE));
    }

    static final String FAILURES_RULE = "a whole number from 1 to 1000";
    static final String DELAY_RULE = "a duration from 0ms to 10m such as 500ms";

    /** {@code guard} with {@code tollgate.breaker.failures} and {@code .delay}, each bad one its default. */
    private GuardSettings readBreaker(GuardSettings guard) {
        int failures = value(BREAKER_FAILURES, guard.failureThreshold(), Integer::parseInt, FAILURES_RULE);
        if (failures < 1 || failures > 1000) {
            error(BREAKER_FAILURES, Integer.toString(failures), FAILURES_RULE);
            failures = guard.failureThreshold();
        }
        Duration delay = value(BREAKER_DELAY, guard.breakerDelay(), Durations::parse, DELAY_RULE);
        if (delay.isNegative() || delay.compareTo(Duration.ofMinutes(10)) > 0) {
            error(BREAKER_DELAY, delay.toString(), DELAY_RULE);
            delay = guard.breakerDelay();
        }
        return guard.withBreaker(failures, delay);
    }

    private Duration readBudget() {
        Duration budget = value(REDIS_TIMEOUT, DEFAULT_TIMEOUT, Durations::parse, "a duration >= 1ms such as 250ms");
        if (budget.toMillis() < 1 || budget.compareTo(Duration.ofMinutes(1)) > 0) {
            error(REDIS_TIMEOUT, budget.toString(), Setting.REDIS_TIMEOUT.rule());
            return DEFAULT_TIMEOUT;
        }
        return budget;
    }

    /** The global mode and local fallback, which each limit may set for itself. */
    private LimitModes.Defaults readModes() {
        LimitMode mode = value(MODE, LimitMode.ENFORCE, LimitMode::parse, Setting.MODE.rule());
        boolean fallback = flag(LOCAL_FALLBACK, false);
        int servers = value(LOCAL_FALLBACK_SERVERS, 1, Integer::parseInt, Setting.LOCAL_FALLBACK_SERVERS.rule());
        if (servers < 1 || servers > 1000) {
            error(LOCAL_FALLBACK_SERVERS, Integer.toString(servers), Setting.LOCAL_FALLBACK_SERVERS.rule());
            servers = 1;
        }
        return new LimitModes.Defaults(mode, fallback, servers);
    }

    private Map<String, LimitSpec> readLimits(boolean defaultFailOpen, LimitModes.Defaults modes) {
        SettingNames.Found found = SettingNames.scan(source.names(), GLOBAL, list(HTTP_LIMITS));
        errors.addAll(found.problems());
        limitNames.addAll(found.limits());
        concurrencyNames.addAll(found.concurrency());
        candidateNames.addAll(found.candidates());
        Map<String, LimitSpec> limits = new TreeMap<>();
        for (String name : limitNames) {
            readLimit(name, defaultFailOpen, modes)
                    .ifPresent(limit -> limits.put(name, TypedSpecs.limit(limit, modes.servers())));
        }
        return limits;
    }

    /**
     * The limit {@code tollgate.limits.<name>.*} gives, read onto {@link Limit}'s builder, whose rules say
     * what is wrong; with its mode, local fallback and shadow candidate, whose settings it does not give
     * are the limit's own when it counts by the same algorithm ({@link LimitModes#candidateView}).
     */
    private Optional<Limit> readLimit(String name, boolean defaultFailOpen, LimitModes.Defaults modes) {
        String p = LIMITS + name + ".";
        int before = errors.size();
        Set<String> refused = new TreeSet<>();
        Limit.Builder limit = policy(name, p, "", refused);
        present(p + "key", Key::parse, Key.RULE).ifPresent(limit::key);
        present(p + "key-normalize", KeyNormalization::parse, KeyNormalization.RULE)
                .ifPresent(n -> limit.keyNormalization(n.api()));
        limit.failOpen(flag(p + "fail-open", defaultFailOpen))
                .shadow(value(p + "mode", modes.mode(), LimitMode::parse, Setting.MODE.rule()) == LimitMode.SHADOW)
                .localFallback(flag(p + "local-fallback", modes.localFallback()));
        PropertySource settings = source;
        if (candidateNames.contains(name)) {
            source = LimitModes.candidateView(settings, name);
            limit.candidate(policy(name, p + SHADOW, SHADOW, refused));
        }
        try {
            for (ConfigProblem problem : limit.problems()) {
                if (!refused.contains(problem.settings().get(0))) {
                    errors.add(describe(p, problem));
                }
            }
        } finally {
            source = settings;
        }
        return errors.size() > before ? Optional.empty() : Optional.of(limit.build());
    }

    /**
     * The counting settings under {@code p} (a limit's, or its candidate's) on a builder; every value that
     * does not parse is reported and its setting, under {@code shadow}, added to {@code refused}.
     */
    private Limit.Builder policy(String name, String p, String shadow, Set<String> refused) {
        Algorithm algorithm = read(p, shadow, "algorithm", Algorithm::parse, ALGORITHM_RULE, refused)
                .orElse(Algorithm.TOKEN_BUCKET);
        Limit.Builder b = Limit.of(name, algorithm.api());
        read(p, shadow, "capacity", SettingsReader::parseLong, LimitRules.CAPACITY_FORM, refused)
                .ifPresent(b::capacity);
        read(p, shadow, "refill-tokens", SettingsReader::parseLong, LimitRules.REFILL_TOKENS_FORM, refused)
                .ifPresent(b::refillTokens);
        read(p, shadow, "refill-period", Durations::parse, LimitRules.REFILL_PERIOD_RULE, refused)
                .ifPresent(b::refillPeriod);
        read(p, shadow, "cost", SettingsReader::parseLong, LimitRules.costRule(null), refused)
                .ifPresent(b::cost);
        read(p, shadow, "persist", SettingsReader::bool, FLAG_RULE, refused).ifPresent(b::persist);
        return b;
    }

    private static final String ALGORITHM_RULE = "token-bucket, fixed-window or sliding-window";

    /** {@code p + setting}, parsed; empty when unset or refused (reported, and added to {@code refused}). */
    private <T> Optional<T> read(
            String p, String shadow, String setting, Function<String, T> parse, String form, Set<String> refused) {
        int before = errors.size();
        Optional<T> v = Optional.ofNullable(value(p + setting, null, parse, form));
        if (errors.size() > before) {
            refused.add(shadow + setting);
        }
        return v;
    }

    /** {@code problem} under the property prefix {@code p}, each value as the properties wrote it. */
    private String describe(String p, ConfigProblem problem) {
        if (problem.settings().get(0).equals("name")) {
            return p + "*: the name '" + problem.values().get(0) + "' must be " + LimitRules.NAME_RULE;
        }
        List<String> values = new ArrayList<>();
        for (int i = 0; i < problem.values().size(); i++) {
            String given = problem.values().get(i);
            values.add(
                    source.get(p + problem.settings().get(i)).map(String::trim).orElse(given));
        }
        return new ConfigProblem(problem.settings(), values, problem.why()).describe(p);
    }

    private AdminSettings readAdmin() {
        boolean enabled = flag(ADMIN_ENABLED, false);
        String role = value(
                ADMIN_ROLE,
                AdminSettings.DEFAULT_ROLE,
                r -> {
                    if (!AdminSettings.ROLE.matcher(r).matches()) {
                        throw new IllegalArgumentException();
                    }
                    return r;
                },
                "a security role name: 1-64 letters, digits, '_', '.' or '-'");
        return new AdminSettings(enabled, role);
    }

    private static final String DENIALS_RULE = Setting.LOCAL_DENIALS.rule();

    /** The concurrency limits {@link SettingNames} found (properties and environment variables), read. */
    private Map<String, ConcurrencySpec> readConcurrency(boolean defaultFailOpen) {
        Map<String, ConcurrencySpec> specs = new TreeMap<>();
        for (String name : concurrencyNames) {
            readConcurrencyLimit(name, defaultFailOpen).ifPresent(spec -> specs.put(name, spec));
        }
        return specs;
    }

    private Optional<ConcurrencySpec> readConcurrencyLimit(String name, boolean defaultFailOpen) {
        String p = CONCURRENCY + name + ".";
        int before = errors.size();
        Set<String> refused = new TreeSet<>();
        ConcurrencyLimit.Builder limit = ConcurrencyLimit.of(name).failOpen(flag(p + "fail-open", defaultFailOpen));
        present(p + "key", Key::parse, Key.RULE).ifPresent(limit::key);
        read(p, "", "max-in-flight", SettingsReader::parseLong, LimitRules.CAPACITY_FORM, refused)
                .ifPresent(limit::maxInFlight);
        read(p, "", "lease", Durations::parse, LimitRules.LEASE_RULE, refused).ifPresent(limit::lease);
        for (ConfigProblem problem : limit.problems()) {
            if (!refused.contains(problem.settings().get(0))) {
                errors.add(describe(p, problem));
            }
        }
        return errors.size() > before ? Optional.empty() : Optional.of(TypedSpecs.concurrency(limit.build()));
    }

    /** Names a limit that is not defined at all; one that is defined badly is reported on its own. */
    private HttpSettings readHttp() {
        List<String> global = list(HTTP_LIMITS);
        for (String name : global) {
            if (!limitNames.contains(name)) {
                error(
                        HTTP_LIMITS,
                        String.join(",", global),
                        "no limit named '" + name + "' is configured (tollgate.limits." + name + ".capacity)");
            }
        }
        List<Cidr> proxies = new ArrayList<>();
        for (String entry : list(HTTP_TRUSTED_PROXIES)) {
            try {
                proxies.add(Cidr.parse(entry));
            } catch (IllegalArgumentException e) {
                error(HTTP_TRUSTED_PROXIES, entry, e.getMessage());
            }
        }
        int prefix = value(HTTP_IPV6_PREFIX, 64, Integer::parseInt, Setting.HTTP_IPV6_PREFIX.rule());
        if (prefix < 1 || prefix > 128) {
            error(HTTP_IPV6_PREFIX, Integer.toString(prefix), Setting.HTTP_IPV6_PREFIX.rule());
            prefix = 64;
        }
        Optional<ClientHeader> header = Optional.ofNullable(
                value(HTTP_CLIENT_HEADER, null, ClientHeader::parse, Setting.HTTP_CLIENT_HEADER.rule()));
        boolean allowWait = flag(HTTP_ALLOW_WAIT, false);
        return clientHeaderMatchesProxies(proxies, header)
                ? new HttpSettings(global, proxies, header, prefix, allowWait)
                : new HttpSettings(global, List.of(), Optional.empty(), prefix, allowWait);
    }

    /** Trusted proxies need the one header they write; a header without trusted proxies is never read. */
    private boolean clientHeaderMatchesProxies(List<Cidr> proxies, Optional<ClientHeader> header) {
        boolean proxiesSet = !list(HTTP_TRUSTED_PROXIES).isEmpty();
        boolean headerSet =
                source.get(HTTP_CLIENT_HEADER).filter(v -> !v.isBlank()).isPresent();
        if (proxiesSet && !headerSet) {
            errors.add(HTTP_CLIENT_HEADER + " is required when " + HTTP_TRUSTED_PROXIES + " is set"
                    + " (X-Forwarded-For or Forwarded: the one header those proxies write. Proxies pass the other"
                    + " one through from the client, so reading it would let a client pick its own bucket)");
        } else if (headerSet && !proxiesSet) {
            error(
                    HTTP_CLIENT_HEADER,
                    source.get(HTTP_CLIENT_HEADER).get().trim(),
                    HTTP_TRUSTED_PROXIES + " as well: the header is believed only from trusted proxies, and"
                            + " without any every client would be keyed by its proxy's address");
        }
        return proxies.isEmpty() == header.isEmpty();
    }

    private Optional<RedisUrl> redisUrl(String url) {
        try {
            return Optional.of(RedisUrl.parse(url));
        } catch (IllegalArgumentException e) {
            error(REDIS_URL, RedisUrl.mask(url), REDIS_URL_FORMS + "; " + e.getMessage());
            return Optional.empty();
        }
    }

    private <T> T value(String name, T fallback, Function<String, T> parse, String expected) {
        Optional<String> raw = source.get(name).map(String::trim).filter(s -> !s.isEmpty());
        if (raw.isEmpty()) {
            return fallback;
        }
        try {
            return parse.apply(raw.get());
        } catch (RuntimeException e) {
            String why = e.getMessage();
            boolean adds = why != null && !(e instanceof NumberFormatException) && !why.startsWith("expected");
            error(name, raw.get(), adds ? expected + "; " + why : expected);
            return fallback;
        }
    }

    private List<String> list(String name) {
        return source.get(name).stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private void error(String name, String value, String expected) {
        problem(name, value, "expected " + expected);
    }

    private void problem(String name, String value, String why) {
        errors.add(name + "=" + value + " (" + why + ")");
    }

    private static KeyPrefix keyPrefix(String s) {
        try {
            return KeyPrefix.parse(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(); // the rule says why
        }
    }

    private static long parseLong(String s) {
        return Long.parseLong(s.trim());
    }

    /** {@code name}'s value when set and valid; a bad value is reported. */
    private <T> Optional<T> present(String name, Function<String, T> parse, String expected) {
        return Optional.ofNullable(value(name, null, parse, expected));
    }

    /** What a flag takes. */
    static final String FLAG_RULE = "true or false";

    /** The flag {@code name}, {@code fallback} when unset or refused. */
    private boolean flag(String name, boolean fallback) {
        return value(name, fallback, SettingsReader::bool, FLAG_RULE);
    }

    /** {@code true} or {@code false}, any case: the one parser of a flag. */
    static boolean bool(String s) {
        return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException();
        };
    }
}
