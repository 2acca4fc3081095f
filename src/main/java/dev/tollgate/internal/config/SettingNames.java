package dev.tollgate.internal.config;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which {@code tollgate.*} names are Tollgate's, which limits they define, and what an environment
 * variable names.
 *
 * <p>MicroProfile Config maps a property name to an environment variable (every character that is not a
 * letter or digit becomes {@code _}, then upper case), never back: {@code TOLLGATE_LIMITS_DEMO_EJB_FAIL_OPEN}
 * could be {@code demo.ejb.fail.open} as well as {@code demo-ejb}'s {@code fail-open}. So a variable is
 * matched against the settings Tollgate has: a global one by its whole name; a limit's by its ending
 * ({@code _CAPACITY}, {@code _REFILL_TOKENS}, {@code _FAIL_OPEN}, ...), the rest naming the limit. That
 * rest is the limit of that name in any other source ({@code DEMO_EJB} is {@code demo-ejb} when a
 * properties file or {@code tollgate.http.limits} names {@code demo-ejb}), else a limit of its own, named
 * in lower case ({@code search_api}). A lock's ({@code _TTL}, {@code _AT_LEAST}) is read by name when the
 * lock is. A variable in one of Tollgate's sections ({@code TOLLGATE_REDIS}, {@code _HTTP}, {@code
 * _LIMITS}, {@code _LOCKS}, {@code _CONCURRENCY}, {@code _FAIL...}) that names no setting is reported like an unknown {@code
 * tollgate.*} property; other {@code TOLLGATE_} variables are not taken for Tollgate's, since others write
 * them too: Kubernetes for a service named {@code tollgate} ({@code TOLLGATE_SERVICE_HOST}, {@code
 * TOLLGATE_PORT_8080_TCP}), this project's test harness ({@code TOLLGATE_TEST_REDIS_BACKEND}).
 */
final class SettingNames {

    static final Set<String> LIMIT_SETTINGS = Setting.names(Setting.Scope.LIMIT, Setting.Scope.CANDIDATE);
    static final Set<String> LOCK_SETTINGS = Setting.names(Setting.Scope.LOCK);
    static final Set<String> CONCURRENCY_SETTINGS = Setting.names(Setting.Scope.CONCURRENCY);

    private static final String PREFIX = "tollgate.";
    private static final String ENV_PREFIX = "TOLLGATE_";
    private static final Pattern LIMIT_PROPERTY = Pattern.compile("tollgate\\.limits\\.([^.]+)\\.([^.]+)");
    private static final Pattern CANDIDATE_PROPERTY = Pattern.compile("tollgate\\.limits\\.([^.]+)\\.shadow\\.([^.]+)");
    private static final Pattern CONCURRENCY_PROPERTY = Pattern.compile("tollgate\\.concurrency\\.([^.]+)\\.([^.]+)");
    private static final Pattern SECTIONS =
            Pattern.compile("(REDIS|BREAKER|HTTP|LIMITS|LOCKS|CONCURRENCY|FAIL|MODE|LOCAL|ADMIN|CONFIG).*");

    private final Set<String> global;
    private final Map<String, String> globalByVariable = new LinkedHashMap<>();
    private final Set<String> limits = new TreeSet<>();
    private final Set<String> concurrency = new TreeSet<>();
    private final Set<String> candidates = new TreeSet<>();
    private final List<String> problems = new ArrayList<>();

    /**
     * What {@code names} say.
     *
     * @param limits every limit the names define
     * @param problems one line per name that is not Tollgate's, naming it (never its value: a misspelled
     *     name may well hold a password)
     * @param concurrency every concurrency limit the names define
     * @param candidates the limits with a shadow candidate ({@code tollgate.limits.<name>.shadow.*})
     */
    record Found(Set<String> limits, List<String> problems, Set<String> concurrency, Set<String> candidates) {}

    private SettingNames(Set<String> global) {
        this.global = global;
        global.forEach(g -> globalByVariable.put(variable(g), g));
    }

    /**
     * @param names every property name of every source, environment variables as they are written
     * @param global the names of the settings that are not per limit or per lock
     * @param limitsInUse limit names used elsewhere ({@code tollgate.http.limits}), to spell variables' limits by
     */
    static Found scan(Iterable<String> names, Set<String> global, List<String> limitsInUse) {
        SettingNames s = new SettingNames(global);
        List<String> variables = new ArrayList<>();
        for (String name : names) {
            if (name.startsWith(PREFIX)) {
                s.property(name);
            } else if (name.indexOf('.') < 0 && name.toUpperCase(Locale.ROOT).startsWith(ENV_PREFIX)) {
                variables.add(name);
            }
        }
        Set<String> spelled = new TreeSet<>(s.limits);
        spelled.addAll(limitsInUse);
        Set<String> concurrencySpelled = new TreeSet<>(s.concurrency);
        variables.forEach(v -> s.variable(v, spelled, concurrencySpelled));
        return new Found(
                Set.copyOf(s.limits), List.copyOf(s.problems), Set.copyOf(s.concurrency), Set.copyOf(s.candidates));
    }

    /** The environment variable MicroProfile Config reads for {@code property}. */
    static String variable(String property) {
        return property.replaceAll("[^A-Za-z0-9]", "_").toUpperCase(Locale.ROOT);
    }

    private void property(String name) {
        if (global.contains(name)) {
            return;
        }
        Matcher candidate = CANDIDATE_PROPERTY.matcher(name);
        if (candidate.matches()) {
            limits.add(candidate.group(1));
            candidates.add(candidate.group(1));
            if (!LimitModes.CANDIDATE_SETTINGS.contains(candidate.group(2))) {
                problems.add(name + " (unknown setting '" + candidate.group(2) + "'; a shadow candidate takes "
                        + String.join(", ", new TreeSet<>(LimitModes.CANDIDATE_SETTINGS))
                        + ": it is keyed and degraded as its limit, and never denies)");
            }
        } else if (name.startsWith(SettingsReader.LIMITS)) {
            named(name, LIMIT_PROPERTY, SettingsReader.LIMITS, "limit", LIMIT_SETTINGS, limits);
        } else if (name.startsWith(SettingsReader.LOCKS)) {
            String rest = name.substring(SettingsReader.LOCKS.length());
            int dot = rest.lastIndexOf('.');
            if (dot < 1 || !LOCK_SETTINGS.contains(rest.substring(dot + 1))) {
                problems.add(name + " (lock properties are tollgate.locks.<name>.ttl, .at-least and .keep-alive)");
            }
        } else if (name.startsWith(SettingsReader.CONCURRENCY)) {
            named(
                    name,
                    CONCURRENCY_PROPERTY,
                    SettingsReader.CONCURRENCY,
                    "concurrency limit",
                    CONCURRENCY_SETTINGS,
                    concurrency);
        } else {
            problems.add(name + " (not a Tollgate setting"
                    + closest(name, global)
                            .map(c -> "; did you mean " + c + "?")
                            .orElse("; see the configuration reference, configuration.md")
                    + ")");
        }
    }

    /**
     * A property of a named limit ({@code <prefix><name>.<setting>}, as {@code shape} matches it, of a
     * {@code kind} that takes {@code settings}): its name added to {@code into}, or the problem of a
     * malformed property or an unknown setting.
     */
    private void named(String name, Pattern shape, String prefix, String kind, Set<String> settings, Set<String> into) {
        Matcher m = shape.matcher(name);
        if (!m.matches()) {
            problems.add(name + " (" + kind + " properties are " + prefix + "<name>.<setting>)");
            return;
        }
        into.add(m.group(1));
        if (!settings.contains(m.group(2))) {
            problems.add(name + " (unknown setting '" + m.group(2) + "'; a " + kind + " takes "
                    + String.join(", ", new TreeSet<>(settings)) + ")");
        }
    }

    private void variable(String name, Set<String> spelled, Set<String> concurrencySpelled) {
        String rest = name.toUpperCase(Locale.ROOT).substring(ENV_PREFIX.length());
        if (globalByVariable.containsKey(ENV_PREFIX + rest)
                || !SECTIONS.matcher(rest).matches()) {
            return;
        }
        Optional<String> inFlight =
                rest.startsWith("CONCURRENCY_") ? ending(rest, CONCURRENCY_SETTINGS) : Optional.empty();
        if (inFlight.isPresent()) {
            String limit = rest.substring(
                    "CONCURRENCY_".length(),
                    rest.length() - variable(inFlight.get()).length() - 1);
            List<String> known = concurrencySpelled.stream()
                    .filter(l -> variable(l).equals(limit))
                    .toList();
            concurrency.addAll(known.isEmpty() ? List.of(limit.toLowerCase(Locale.ROOT)) : known);
            return;
        }
        Optional<String> setting = rest.startsWith("LIMITS_") ? ending(rest, LIMIT_SETTINGS) : Optional.empty();
        if (setting.isPresent()) {
            String limit = candidateOf(
                    rest.substring(
                            "LIMITS_".length(),
                            rest.length() - variable(setting.get()).length() - 1),
                    setting.get(),
                    spelled);
            List<String> known =
                    spelled.stream().filter(l -> variable(l).equals(limit)).toList();
            limits.addAll(known.isEmpty() ? List.of(limit.toLowerCase(Locale.ROOT)) : known);
        } else if (!rest.startsWith("LOCKS_") || ending(rest, LOCK_SETTINGS).isEmpty()) {
            problems.add(name + " (an environment variable that names no Tollgate setting; " + hint(rest) + ")");
        }
    }

    /**
     * {@code API_SHADOW} of {@code TOLLGATE_LIMITS_API_SHADOW_CAPACITY} names the candidate of limit {@code
     * API}, unless a limit spelled {@code API_SHADOW} in variable form ({@code api-shadow}) is named elsewhere.
     */
    private String candidateOf(String limit, String setting, Set<String> spelled) {
        boolean named = spelled.stream().anyMatch(l -> variable(l).equals(limit));
        if (named || !limit.endsWith("_SHADOW") || !LimitModes.CANDIDATE_SETTINGS.contains(setting)) {
            return limit;
        }
        String primary = limit.substring(0, limit.length() - "_SHADOW".length());
        if (primary.isEmpty()) {
            return limit;
        }
        List<String> known =
                spelled.stream().filter(l -> variable(l).equals(primary)).toList();
        candidates.addAll(known.isEmpty() ? List.of(primary.toLowerCase(Locale.ROOT)) : known);
        return primary;
    }

    private String hint(String rest) {
        if (rest.startsWith("LIMITS_")) {
            return "a limit's variables are TOLLGATE_LIMITS_<NAME>_<SETTING>, the setting one of "
                    + variables(LIMIT_SETTINGS);
        }
        if (rest.startsWith("LOCKS_")) {
            return "a lock's variables are TOLLGATE_LOCKS_<NAME>_TTL, _AT_LEAST and _KEEP_ALIVE";
        }
        if (rest.startsWith("CONCURRENCY_")) {
            return "a concurrency limit's variables are TOLLGATE_CONCURRENCY_<NAME>_<SETTING>, the setting one of "
                    + variables(CONCURRENCY_SETTINGS);
        }
        return closest(ENV_PREFIX + rest, globalByVariable.keySet())
                .map(c -> "did you mean " + c + " (" + globalByVariable.get(c) + ")?")
                .orElse("see the configuration reference, configuration.md");
    }

    /** {@code settings} as variables spell them, in order, comma-separated. */
    private static String variables(Set<String> settings) {
        return String.join(
                ", ",
                new TreeSet<>(settings.stream().map(SettingNames::variable).toList()));
    }

    /** The setting whose variable form ends {@code rest} after a non-empty name, the longest first. */
    private static Optional<String> ending(String rest, Set<String> settings) {
        int prefixEnd = rest.indexOf('_') + 1;
        return settings.stream()
                .filter(s -> rest.endsWith("_" + variable(s))
                        && rest.length() - variable(s).length() - 1 > prefixEnd)
                .max(Comparator.comparingInt(String::length));
    }

    private static Optional<String> closest(String name, Set<String> candidates) {
        return candidates.stream()
                .filter(c -> distance(name, c) <= 3)
                .min(Comparator.comparingInt((String c) -> distance(name, c)).thenComparing(c -> c));
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j], cur[j - 1]) + 1);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
