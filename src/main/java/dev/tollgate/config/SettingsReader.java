package dev.tollgate.config;

import dev.tollgate.LimitPolicy;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.concurrency.ConcurrencySpec;
import dev.tollgate.core.Durations;
import dev.tollgate.guard.GuardSettings;
import dev.tollgate.http.Cidr;
import dev.tollgate.http.ClientHeader;
import dev.tollgate.lock.LockNames;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.KeyNormalization;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitMode;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.Plans;
import dev.tollgate.redis.KeyPrefix;
import dev.tollgate.redis.RedisUrl;
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

    public static final String REDIS_URL = "tollgate.redis.url";
    public static final String REDIS_TIMEOUT = "tollgate.redis.timeout";
    public static final String REDIS_POOL_SIZE = "tollgate.redis.pool-size";
    public static final String REDIS_KEY_PREFIX = "tollgate.redis.key-prefix";
    public static final String BREAKER_FAILURES = "tollgate.breaker.failures";
    public static final String BREAKER_DELAY = "tollgate.breaker.delay";
    public static final String FAIL_OPEN = "tollgate.fail-open";
    public static final String LIMITS = "tollgate.limits.";
    public static final String HTTP_LIMITS = "tollgate.http.limits";
    public static final String HTTP_TRUSTED_PROXIES = "tollgate.http.trusted-proxies";
    public static final String HTTP_IPV6_PREFIX = "tollgate.http.ipv6-prefix";
    public static final String HTTP_CLIENT_HEADER = "tollgate.http.client-header";
    public static final String HTTP_ALLOW_WAIT = "tollgate.http.allow-wait";
    public static final String LOCKS = "tollgate.locks.";
    public static final String CONCURRENCY = "tollgate.concurrency.";
    public static final String MODE = "tollgate.mode";
    public static final String LOCAL_FALLBACK = "tollgate.local-fallback";
    public static final String LOCAL_FALLBACK_SERVERS = "tollgate.local-fallback-servers";
    public static final String LOCAL_DENIALS = "tollgate.local-denials";
    public static final String ADMIN_ENABLED = "tollgate.admin.enabled";
    public static final String ADMIN_ROLE = "tollgate.admin.role";
    public static final String CONFIG_FILE = "tollgate.config.file";
    public static final String CONFIG_INTERVAL = "tollgate.config.interval";
    public static final String LOCK_HOLDER = "tollgate.lock-holder";
    /** A limit's shadow candidate: {@code tollgate.limits.<name>.shadow.<setting>}. */
    public static final String SHADOW = "shadow.";

    /** Every setting that is not per limit or per lock: any other {@code tollgate.*} name is refused. */
    static final Set<String> GLOBAL = Set.of(
            REDIS_URL,
            REDIS_TIMEOUT,
            REDIS_POOL_SIZE,
            REDIS_KEY_PREFIX,
            BREAKER_FAILURES,
            BREAKER_DELAY,
            FAIL_OPEN,
            HTTP_LIMITS,
            HTTP_TRUSTED_PROXIES,
            HTTP_IPV6_PREFIX,
            HTTP_CLIENT_HEADER,
            HTTP_ALLOW_WAIT,
            MODE,
            LOCAL_FALLBACK,
            LOCAL_FALLBACK_SERVERS,
            LOCAL_DENIALS,
            ADMIN_ENABLED,
            ADMIN_ROLE,
            CONFIG_FILE,
            CONFIG_INTERVAL,
            LOCK_HOLDER);

    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(GuardSettings.DEFAULT_BUDGET_MILLIS);
    static final int DEFAULT_POOL_SIZE = GuardSettings.DEFAULT_WORKERS;
    static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);
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

    private static final String INTERVAL_RULE = "a duration from 100ms to 1h such as 5s";

    /** Every setting, with each bad value's default in its place; {@link #errors} lists what was bad. */
    private TollgateSettings readAll() {
        Optional<RedisUrl> url = source.get(REDIS_URL)
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .flatMap(this::redisUrl);
        Duration budget = readBudget();
        int pool = value(REDIS_POOL_SIZE, DEFAULT_POOL_SIZE, Integer::parseInt, "a whole number > 0");
        if (pool < 1) {
            error(REDIS_POOL_SIZE, Integer.toString(pool), "a whole number > 0");
            pool = DEFAULT_POOL_SIZE;
        }
        boolean failOpen = value(FAIL_OPEN, true, SettingsReader::bool, "true or false");
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

    private static final String FAILURES_RULE = "a whole number from 1 to 1000";
    private static final String DELAY_RULE = "a duration from 0ms to 10m such as 500ms";

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
            error(REDIS_TIMEOUT, budget.toString(), "between 1ms and 1m");
            return DEFAULT_TIMEOUT;
        }
        return budget;
    }

    /** The global mode and local fallback, which each limit may set for itself. */
    private LimitModes.Defaults readModes() {
        LimitMode mode = value(MODE, LimitMode.ENFORCE, LimitMode::parse, "enforce or shadow");
        boolean fallback = value(LOCAL_FALLBACK, false, SettingsReader::bool, "true or false");
        int servers = value(LOCAL_FALLBACK_SERVERS, 1, Integer::parseInt, "a whole number from 1 to 1000");
        if (servers < 1 || servers > 1000) {
            error(LOCAL_FALLBACK_SERVERS, Integer.toString(servers), "a whole number from 1 to 1000");
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
            readLimit(name, defaultFailOpen).ifPresent(spec -> limits.put(name, withModes(spec, modes)));
        }
        return limits;
    }

    /** {@code spec} with its mode, local fallback and shadow candidate. */
    private LimitSpec withModes(LimitSpec spec, LimitModes.Defaults modes) {
        String p = LIMITS + spec.name() + ".";
        LimitMode mode = value(p + "mode", modes.mode(), LimitMode::parse, "enforce or shadow");
        boolean fallback = value(p + "local-fallback", modes.localFallback(), SettingsReader::bool, "true or false");
        LimitSpec candidate = candidateNames.contains(spec.name()) ? readCandidate(spec) : null;
        LimitPolicy share = LimitModes.localShare(spec, modes.servers());
        return spec.withMode(mode)
                .withCandidate(candidate)
                .withLocalFallback(fallback ? share : null)
                .withLoadShare(share);
    }

    /**
     * The candidate of {@code tollgate.limits.<name>.shadow.*}: every setting it does not give is the
     * limit's own (when it counts by the same algorithm), so a candidate says only what it changes.
     */
    private LimitSpec readCandidate(LimitSpec primary) {
        PropertySource settings = source;
        source = LimitModes.candidateView(settings, primary.name());
        try {
            return readLimit(primary.name(), LIMITS + primary.name() + "." + SHADOW, primary.failOpen())
                    .map(c -> new LimitSpec(
                            c.policy(),
                            c.algorithm(),
                            primary.key(),
                            true,
                            LimitMode.CANDIDATE,
                            null,
                            null,
                            primary.keyNormalization(),
                            null))
                    .orElse(null);
        } finally {
            source = settings;
        }
    }

    private Optional<LimitSpec> readLimit(String name, boolean defaultFailOpen) {
        return readLimit(name, LIMITS + name + ".", defaultFailOpen);
    }

    /** The limit whose settings start with {@code p}. */
    private Optional<LimitSpec> readLimit(String name, String p, boolean defaultFailOpen) {
        int before = errors.size();
        Algorithm algorithm = value(
                p + "algorithm",
                Algorithm.TOKEN_BUCKET,
                Algorithm::parse,
                "token-bucket, fixed-window or sliding-window");
        long maxCapacity = algorithm.largestCapacity();
        Long capacity = inRange(
                p + "capacity",
                required(p + "capacity", SettingsReader::parseLong, "a whole number > 0"),
                1,
                maxCapacity,
                capacityRule(algorithm));
        Long refill = capacity;
        if (algorithm == Algorithm.TOKEN_BUCKET) {
            refill = inRange(
                    p + "refill-tokens",
                    required(p + "refill-tokens", SettingsReader::parseLong, "a whole number >= 0"),
                    0,
                    LimitPolicy.MAX_COUNT,
                    "a whole number from 0 to 9007199254740992 (2^53)");
        } else {
            notForWindows(p, "refill-tokens", algorithm);
        }
        Duration period = value(p + "refill-period", Duration.ofSeconds(1), Durations::parse, PERIOD_RULE);
        if (period.compareTo(Duration.ofMillis(1)) < 0 || period.compareTo(LimitPolicy.MAX_PERIOD) > 0) {
            error(
                    p + "refill-period",
                    source.get(p + "refill-period").orElse("").trim(),
                    PERIOD_RULE);
            period = null;
        }
        Long cost = readCost(p, algorithm, capacity);
        KeySpec key = value(
                p + "key",
                new KeySpec.Ip(),
                KeySpec::parse,
                "ip, principal, global, header:<Name> or a KeyResolver bean name");
        KeyNormalization normalization =
                value(p + "key-normalize", KeyNormalization.DEFAULT, KeyNormalization::parse, KeyNormalization.RULE);
        boolean failOpen = value(p + "fail-open", defaultFailOpen, SettingsReader::bool, "true or false");
        checkPersist(p, algorithm, refill);
        if (errors.size() > before) {
            return Optional.empty();
        }
        LimitPolicy policy = new LimitPolicy(name, capacity, refill, period, cost);
        if (algorithm == Algorithm.TOKEN_BUCKET
                && policy.refills()
                && policy.refillFromEmpty().compareTo(LimitSpec.MAX_REFILL_FROM_EMPTY) > 0) {
            errors.add(p + "capacity=" + capacity + ", " + p + "refill-tokens=" + refill + ", " + p
                    + "refill-period="
                    + source.get(p + "refill-period").map(String::trim).orElse(Durations.format(period))
                    + " (an empty bucket refills in "
                    + policy.refillFromEmpty().toDays() + " days; expected at most 100 years, the longest a"
                    + " bucket's key may live: for a quota that never comes back use refill-tokens=0 with"
                    + " persist=true)");
            return Optional.empty();
        }
        return Optional.of(new LimitSpec(policy, algorithm, key, failOpen).withKeyNormalization(normalization));
    }

    private AdminSettings readAdmin() {
        boolean enabled = value(ADMIN_ENABLED, false, SettingsReader::bool, "true or false");
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

    private static final String DENIALS_RULE = "a whole number from 0 (off) to 10000000";

    private static final String PERIOD_RULE =
            "a duration from 1ms to 36525d (100 years) such as 1s, 500ms, 1m, 1d or PT1S";

    private Long readCost(String p, Algorithm algorithm, Long capacity) {
        Long cost = value(p + "cost", 1L, SettingsReader::parseLong, "a whole number from 1 to the capacity");
        if (algorithm == Algorithm.SLIDING_WINDOW && cost != null && cost > algorithm.largestCost()) {
            error(
                    p + "cost",
                    Long.toString(cost),
                    "a whole number from 1 to " + algorithm.largestCost() + " for a sliding-window limit: one"
                            + " call adds one Redis entry per unit of cost while Redis runs nothing else");
            return null;
        }
        return inRange(
                p + "cost",
                cost,
                1,
                capacity == null ? LimitPolicy.MAX_COUNT : capacity,
                "a whole number from 1 to the capacity" + (capacity == null ? "" : " (" + capacity + ")")
                        + ": a call costing more than the bucket holds could never pass");
    }

    private static String capacityRule(Algorithm algorithm) {
        return algorithm == Algorithm.SLIDING_WINDOW
                ? "a whole number from 1 to " + algorithm.largestCapacity() + " for a sliding-window limit: it"
                        + " keeps one Redis entry"
                        + " (about 127 bytes) per admitted call for a whole window; use token-bucket or"
                        + " fixed-window for more"
                : "a whole number from 1 to 9007199254740992 (2^53): beyond it Redis's scripts, which count"
                        + " in doubles, stop counting";
    }

    /** {@code value} if within {@code [min, max]}; else an error naming the property, and null. */
    private Long inRange(String property, Long value, long min, long max, String rule) {
        if (value == null) {
            return null;
        }
        if (value < min || value > max) {
            error(property, Long.toString(value), rule);
            return null;
        }
        return value;
    }

    private void notForWindows(String p, String setting, Algorithm algorithm) {
        source.get(p + setting)
                .ifPresent(v -> error(
                        p + setting,
                        v,
                        "nothing: a " + algorithm.configName() + " limit admits capacity calls per refill-period; "
                                + setting + " is for token-bucket"));
    }

    /**
     * A quota that never refills keeps one key per client forever, so it must say so: {@code
     * persist=true}, allowed on nothing else (every other limit's keys expire once forgetting them
     * changes nothing).
     */
    private void checkPersist(String p, Algorithm algorithm, Long refill) {
        boolean persist = value(p + "persist", false, SettingsReader::bool, "true or false");
        boolean quota = algorithm == Algorithm.TOKEN_BUCKET && refill != null && refill == 0;
        if (quota && !persist) {
            problem(
                    p + "refill-tokens",
                    "0",
                    "a quota that never refills keeps one Redis key per client forever: set " + p
                            + "persist=true to accept that, or give it refill-tokens > 0, or use"
                            + " algorithm=fixed-window for a quota per period");
        } else if (persist && !quota) {
            problem(
                    p + "persist",
                    source.get(p + "persist").orElse("").trim(),
                    "only a token-bucket quota that never refills (refill-tokens=0) persists its keys;"
                            + " every other limit's keys expire once forgetting them changes nothing");
        }
    }

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
        Long max = inRange(
                p + "max-in-flight",
                required(p + "max-in-flight", SettingsReader::parseLong, "a whole number > 0"),
                1,
                Integer.MAX_VALUE,
                "a whole number from 1 to 2147483647");
        KeySpec key = value(
                p + "key",
                new KeySpec.Global(),
                KeySpec::parse,
                "ip, principal, global, header:<Name> or a KeyResolver bean name");
        Duration lease = value(p + "lease", DEFAULT_LEASE, Durations::parse, LEASE_RULE);
        if (lease.compareTo(ConcurrencySpec.MIN_LEASE) < 0 || lease.compareTo(Duration.ofDays(1)) > 0) {
            error(p + "lease", source.get(p + "lease").orElse("").trim(), LEASE_RULE);
        }
        boolean failOpen = value(p + "fail-open", defaultFailOpen, SettingsReader::bool, "true or false");
        if (!ConcurrencySpec.NAME.matcher(name).matches()) {
            errors.add(p + "*: the name '" + name + "' must be 1-64 letters, digits, '_' or '-'");
        }
        if (errors.size() > before) {
            return Optional.empty();
        }
        return Optional.of(new ConcurrencySpec(name, max, key, lease, failOpen));
    }

    private static final String LEASE_RULE = "a duration from 100ms to 1d such as 10s";

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
        int prefix = value(HTTP_IPV6_PREFIX, 64, Integer::parseInt, "a whole number from 1 to 128");
        if (prefix < 1 || prefix > 128) {
            error(HTTP_IPV6_PREFIX, Integer.toString(prefix), "a whole number from 1 to 128");
            prefix = 64;
        }
        Optional<ClientHeader> header = Optional.ofNullable(
                value(HTTP_CLIENT_HEADER, null, ClientHeader::parse, "X-Forwarded-For or Forwarded"));
        boolean allowWait = value(HTTP_ALLOW_WAIT, false, SettingsReader::bool, "true or false");
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

    private <T> T required(String name, Function<String, T> parse, String expected) {
        if (source.get(name).map(String::trim).filter(s -> !s.isEmpty()).isEmpty()) {
            errors.add(name + " is required (" + expected + ")");
            return null;
        }
        return value(name, null, parse, expected);
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

    private static boolean bool(String s) {
        return switch (s.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException();
        };
    }
}
