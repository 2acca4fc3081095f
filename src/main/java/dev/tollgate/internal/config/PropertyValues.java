package dev.tollgate.internal.config;

import dev.tollgate.ConfigProblem;
import dev.tollgate.LimitRules;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The properties one reading reads and every problem it finds: the one place a value is parsed,
 * defaulted and, when bad, reported as {@code <property>=<value> (expected <rule>)}.
 */
final class PropertyValues {

    /** Where values are read: the settings, or while a candidate is read, its view of them. */
    private PropertySource source;

    private final List<String> problems = new ArrayList<>();

    PropertyValues(PropertySource source) {
        this.source = source;
    }

    PropertySource source() {
        return source;
    }

    /** Puts {@code over} in the place of the properties from now on (the limits file's over the others). */
    void replace(PropertySource over) {
        source = over;
    }

    /** What {@code read} gives, reading through {@code view} meanwhile (a shadow candidate's view of its limit). */
    <T> T through(PropertySource view, Supplier<T> read) {
        PropertySource settings = source;
        source = view;
        try {
            return read.get();
        } finally {
            source = settings;
        }
    }

    /** Every problem so far, one line each. */
    List<String> problems() {
        return problems;
    }

    int count() {
        return problems.size();
    }

    void add(String problem) {
        problems.add(problem);
    }

    void addAll(List<String> more) {
        problems.addAll(more);
    }

    /** {@code name} parsed; {@code fallback} when unset or when it does not parse (reported, after {@code expected}). */
    <T> T value(String name, T fallback, Function<String, T> parse, String expected) {
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

    /** {@code name}'s value when set and valid; a bad value is reported. */
    <T> Optional<T> present(String name, Function<String, T> parse, String expected) {
        return Optional.ofNullable(value(name, null, parse, expected));
    }

    /** The global {@code setting} parsed, its row's default when unset or bad, by its row's rule. */
    <T> T value(Setting setting, Function<String, T> parse) {
        return value(setting.property(), parse.apply(setting.defaultText()), parse, setting.rule());
    }

    /** The global whole-number {@code setting} within its row's range. */
    int whole(Setting setting) {
        return value(setting, setting::whole);
    }

    /** The global duration {@code setting} within its row's range. */
    Duration duration(Setting setting) {
        return value(setting, setting::duration);
    }

    /** The global flag {@code setting}. */
    boolean flag(Setting setting) {
        return flag(setting.property(), SettingsReader.bool(setting.defaultText()));
    }

    /** The flag {@code name}, {@code fallback} when unset or refused. */
    boolean flag(String name, boolean fallback) {
        return value(name, fallback, SettingsReader::bool, SettingsReader.FLAG_RULE);
    }

    /** {@code p + setting}, parsed; empty when unset or refused (reported, and added to {@code refused}). */
    <T> Optional<T> read(
            String p, String shadow, String setting, Function<String, T> parse, String form, Set<String> refused) {
        int before = problems.size();
        Optional<T> v = Optional.ofNullable(value(p + setting, null, parse, form));
        if (problems.size() > before) {
            refused.add(shadow + setting);
        }
        return v;
    }

    /** Each of a builder's {@code found} problems under the property prefix {@code p}, but those already refused. */
    void report(String p, List<ConfigProblem> found, Set<String> refused) {
        for (ConfigProblem problem : found) {
            if (!refused.contains(problem.settings().get(0))) {
                problems.add(describe(p, problem));
            }
        }
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

    /** {@code name}'s comma-separated entries, trimmed, empty ones left out. */
    List<String> list(String name) {
        return source.get(name).stream()
                .flatMap(v -> Arrays.stream(v.split(",")))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    void error(String name, String value, String expected) {
        problems.add(name + "=" + value + " (expected " + expected + ")");
    }

    static long parseLong(String s) {
        return Long.parseLong(s.trim());
    }
}
