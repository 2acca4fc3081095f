package dev.tollgate.cdi;

import dev.tollgate.config.PropertySource;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/** MicroProfile Config as Tollgate's {@link PropertySource}: files, system properties, environment. */
public final class MicroProfilePropertySource implements PropertySource {

    private final Config config;

    public MicroProfilePropertySource(Config config) {
        this.config = config;
    }

    @Override
    public Optional<String> get(String name) {
        return config.getOptionalValue(name, String.class);
    }

    @Override
    public Iterable<String> names() {
        return config.getPropertyNames();
    }
}
