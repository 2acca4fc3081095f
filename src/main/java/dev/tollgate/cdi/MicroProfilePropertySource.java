package dev.tollgate.cdi;

import dev.tollgate.internal.config.PropertySource;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigSource;

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

    /**
     * Each source's own names. Not {@link Config#getPropertyNames()}: SmallRye Config (Liberty's) adds
     * to it a guess at the property behind each environment variable ({@code TOLLGATE_LIMITS_DEMO_FAIL_OPEN}
     * becomes {@code tollgate.limits.demo.fail.open}), which cannot know a {@code -} from a {@code .}.
     */
    @Override
    public Iterable<String> names() {
        Set<String> names = new LinkedHashSet<>();
        for (ConfigSource source : config.getConfigSources()) {
            names.addAll(source.getPropertyNames());
        }
        return names;
    }
}
