package dev.tollgate.config;

import java.util.Map;
import java.util.Optional;

/** Where settings come from: MicroProfile Config in a server, a map in tests and tools. */
public interface PropertySource {

    Optional<String> get(String name);

    Iterable<String> names();

    static PropertySource of(Map<String, String> values) {
        return new PropertySource() {
            @Override
            public Optional<String> get(String name) {
                return Optional.ofNullable(values.get(name));
            }

            @Override
            public Iterable<String> names() {
                return values.keySet();
            }
        };
    }
}
