package dev.tollgate.internal.config;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.Key;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.core.Durations;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The concurrency limits, {@code tollgate.concurrency.<name>.*}, each read onto {@link ConcurrencyLimit}'s
 * builder: one with any problem is reported and left out.
 */
final class ConcurrencyReader {

    private ConcurrencyReader() {}

    /** The well-defined concurrency limits of {@code names} ({@link SettingNames} found them). */
    static Map<String, ConcurrencySpec> read(PropertyValues values, Set<String> names, boolean defaultFailOpen) {
        Map<String, ConcurrencySpec> specs = new TreeMap<>();
        for (String name : names) {
            limit(values, name, defaultFailOpen).ifPresent(spec -> specs.put(name, spec));
        }
        return specs;
    }

    private static Optional<ConcurrencySpec> limit(PropertyValues values, String name, boolean defaultFailOpen) {
        String p = SettingsReader.CONCURRENCY + name + ".";
        int before = values.count();
        Set<String> refused = new TreeSet<>();
        ConcurrencyLimit.Builder limit =
                ConcurrencyLimit.of(name).failOpen(values.flag(p + "fail-open", defaultFailOpen));
        values.present(p + "key", Key::parse, Setting.CONCURRENCY_KEY.rule()).ifPresent(limit::key);
        values.read(p, "", "max-in-flight", PropertyValues::parseLong, LimitRules.CAPACITY_FORM, refused)
                .ifPresent(limit::maxInFlight);
        values.read(p, "", "lease", Durations::parse, Setting.LEASE.rule(), refused)
                .ifPresent(limit::lease);
        values.report(p, limit.problems(), refused);
        return values.count() > before ? Optional.empty() : Optional.of(TypedSpecs.concurrency(limit.build()));
    }
}
