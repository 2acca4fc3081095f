package dev.tollgate.internal.config;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** Where settings come from: MicroProfile Config in a server, a map in tests and tools. */
public interface PropertySource {

    Optional<String> get(String name);

    /** Every name of every source, as the source writes it: an environment variable's as it is set. */
    Iterable<String> names();

    /**
     * The settings in {@code values}, with names that look like environment variables read as
     * MicroProfile Config reads its environment source, which outranks a properties file: a name is
     * looked up in upper case with each character that is not a letter or digit replaced by {@code _},
     * then so replaced but in its own case, then as written. So {@code TOLLGATE_LIMITS_DEMO_FAIL_OPEN} in
     * the map is {@code tollgate.limits.demo.fail-open}, over that name's own entry.
     */
    static PropertySource of(Map<String, String> values) {
        return new PropertySource() {
            @Override
            public Optional<String> get(String name) {
                String underscored = name.replaceAll("[^A-Za-z0-9]", "_");
                String value = values.get(underscored.toUpperCase(Locale.ROOT));
                value = value != null ? value : values.get(underscored);
                value = value != null ? value : values.get(name);
                return Optional.ofNullable(value);
            }

            @Override
            public Iterable<String> names() {
                return values.keySet();
            }
        };
    }
}
