package dev.tollgate.cdi;

import dev.tollgate.config.SettingsReader;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Makes {@code tollgate.redis.timeout} (as {@link SettingsReader} reads it) the default of {@link
 * FaultTolerantRedisCaller}'s {@code @Timeout}, so one setting is one budget. Its ordinal (50) is below
 * every standard source, so Fault Tolerance's own keys still win.
 */
public final class FaultToleranceDefaults implements ConfigSource {

    static final String TIMEOUT = FaultTolerantRedisCaller.class.getName() + "/call/Timeout/value";
    private static final ThreadLocal<Boolean> READING = ThreadLocal.withInitial(() -> false);

    @Override
    public Set<String> getPropertyNames() {
        return Set.of(TIMEOUT);
    }

    @Override
    public String getValue(String name) {
        if (!TIMEOUT.equals(name) || READING.get()) {
            return null;
        }
        READING.set(true);
        try {
            return Long.toString(SettingsReader.budget(new MicroProfilePropertySource(ConfigProvider.getConfig()))
                    .toMillis());
        } finally {
            READING.set(false);
        }
    }

    @Override
    public int getOrdinal() {
        return 50;
    }

    @Override
    public String getName() {
        return "Tollgate defaults for MicroProfile Fault Tolerance";
    }
}
