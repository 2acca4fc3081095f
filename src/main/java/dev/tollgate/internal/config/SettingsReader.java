package dev.tollgate.internal.config;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.Plans;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Reads and validates {@code tollgate.*} settings. Every problem is collected, and all of them are
 * reported in one {@link TollgateConfigException} naming each property and its value. Each scope has its
 * reader: {@link GlobalReader}, {@link LimitReader}, {@link ConcurrencyReader}, {@link HttpReader} (and
 * {@link PlanSettings}); {@link PropertyValues} is how every one of them parses, defaults and reports.
 */
public final class SettingsReader {

    public static final String LIMITS = "tollgate.limits.";
    public static final String LOCKS = "tollgate.locks.";
    public static final String CONCURRENCY = "tollgate.concurrency.";
    public static final String CONFIG_FILE = Setting.CONFIG_FILE.property();
    /** The global settings plain Java's builder sets, as their properties (rows of {@link Setting}). */
    public static final String REDIS_URL = Setting.REDIS_URL.property();

    public static final String REDIS_TIMEOUT = Setting.REDIS_TIMEOUT.property();
    public static final String REDIS_POOL_SIZE = Setting.REDIS_POOL_SIZE.property();
    public static final String REDIS_KEY_PREFIX = Setting.REDIS_KEY_PREFIX.property();
    public static final String BREAKER_FAILURES = Setting.BREAKER_FAILURES.property();
    public static final String BREAKER_DELAY = Setting.BREAKER_DELAY.property();
    public static final String FAIL_OPEN = Setting.FAIL_OPEN.property();
    public static final String LOCAL_FALLBACK_SERVERS = Setting.LOCAL_FALLBACK_SERVERS.property();
    public static final String LOCAL_DENIALS = Setting.LOCAL_DENIALS.property();
    public static final String LOCK_HOLDER = Setting.LOCK_HOLDER.property();
    /** A limit's shadow candidate: {@code tollgate.limits.<name>.shadow.<setting>}. */
    public static final String SHADOW = "shadow.";

    /** Every setting that is not per limit or per lock ({@link Setting}): any other {@code tollgate.*} name is refused. */
    static final Set<String> GLOBAL = Setting.names(Setting.Scope.GLOBAL);

    static final int DEFAULT_LOCAL_DENIALS = Integer.parseInt(Setting.LOCAL_DENIALS.defaultText());

    /** What a flag takes. */
    static final String FLAG_RULE = "true or false";

    private final PropertyValues values;
    private final Set<String> limitNames = new TreeSet<>();
    private final Set<String> concurrencyNames = new TreeSet<>();
    private final Set<String> candidateNames = new TreeSet<>();
    private ReloadSettings reload = ReloadSettings.none();

    private SettingsReader(PropertySource source) {
        this.values = new PropertyValues(source);
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
    static Reading check(PropertySource source, Function<Path, LimitsFile.Read> file) {
        SettingsReader reader = new SettingsReader(source);
        reader.overlayLimitsFile(file);
        TollgateSettings settings = reader.readAll();
        List<String> problems = reader.values.problems();
        return new Reading(
                problems.isEmpty() ? Optional.of(settings) : Optional.empty(),
                problems,
                reader.limitNames,
                settings.limits(),
                reader.concurrencyNames);
    }

    /** Puts the limits file's settings over every other source (the name and interval from the others). */
    private void overlayLimitsFile(Function<Path, LimitsFile.Read> files) {
        Duration interval = values.duration(Setting.CONFIG_INTERVAL);
        Optional<String> file =
                values.source().get(CONFIG_FILE).map(String::trim).filter(f -> !f.isEmpty());
        if (file.isEmpty()) {
            reload = new ReloadSettings(Optional.empty(), interval);
            return;
        }
        Path path = Path.of(file.get());
        LimitsFile.Read read = files.apply(path);
        values.addAll(read.problems());
        values.replace(LimitsFile.over(values.source(), read.values()));
        reload = new ReloadSettings(Optional.of(path), interval);
    }

    /** Every setting, with each bad value's default in its place; {@link #values} lists what was bad. */
    private TollgateSettings readAll() {
        var url = GlobalReader.redisUrl(values);
        Duration budget = values.duration(Setting.REDIS_TIMEOUT);
        int pool = values.whole(Setting.REDIS_POOL_SIZE);
        boolean failOpen = values.flag(Setting.FAIL_OPEN);
        LimitModes.Defaults modes = GlobalReader.modes(values);
        Map<String, LimitSpec> limits = readLimits(failOpen, modes);
        HttpSettings http = HttpReader.read(values, limitNames);
        Map<String, ConcurrencySpec> concurrency = ConcurrencyReader.read(values, concurrencyNames, failOpen);
        int denials = values.whole(Setting.LOCAL_DENIALS);
        Map<String, Plans> plans = PlanSettings.read(values.source(), limitNames, limits, values.problems());
        return new TollgateSettings(
                url,
                GlobalReader.breaker(values, GuardSettings.defaults(budget, pool)),
                failOpen,
                limits,
                http,
                concurrency,
                denials,
                plans,
                GlobalReader.admin(values),
                reload,
                GlobalReader.lockHolder(values),
                GlobalReader.keyPrefix(values),
                modes.servers());
    }

    /**
     * {@code tollgate.redis.timeout} and {@code tollgate.breaker.*} alone (the pool's default beside them),
     * for the Fault Tolerance timeout and breaker that follow them: each one's default when unset or
     * invalid ({@link #read} reports an invalid value).
     */
    public static GuardSettings guard(PropertySource source) {
        PropertyValues values = new PropertyValues(source);
        return GlobalReader.breaker(
                values, GuardSettings.defaults(values.duration(Setting.REDIS_TIMEOUT), GuardSettings.DEFAULT_WORKERS));
    }

    private Map<String, LimitSpec> readLimits(boolean defaultFailOpen, LimitModes.Defaults modes) {
        SettingNames.Found found =
                SettingNames.scan(values.source().names(), GLOBAL, values.list(Setting.HTTP_LIMITS.property()));
        values.addAll(found.problems());
        limitNames.addAll(found.limits());
        concurrencyNames.addAll(found.concurrency());
        candidateNames.addAll(found.candidates());
        return PacingLimit.withBuiltIn(LimitReader.read(values, limitNames, candidateNames, defaultFailOpen, modes));
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
