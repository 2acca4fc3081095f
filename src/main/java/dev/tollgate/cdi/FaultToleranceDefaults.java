package dev.tollgate.cdi;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Makes {@code tollgate.redis.timeout} the default of {@link FaultTolerantRedisCaller}'s {@code
 * @Timeout}, so one setting is one budget.
 * Its ordinal (50) is below every standard source, so Fault Tolerance's own keys still win.
 */
public final class FaultToleranceDefaults implements ConfigSource {

    static final String PREFIX = FaultTolerantRedisCaller.class.getName() + "/call/";
    private static final Map<String, String> DERIVED = Map.of(PREFIX + "Timeout/value", "tollgate.redis.timeout");
    private static final ThreadLocal<Boolean> READING = ThreadLocal.withInitial(() -> false);

    @Override
    public Set<String> getPropertyNames() {
        return DERIVED.keySet();
    }

    @Override
    public String getValue(String name) {
        String from = DERIVED.get(name);
        if (from == null || READING.get()) {
            return null;
        }
        READING.set(true);
        try {
            Optional<String> value = ConfigProvider.getConfig().getOptionalValue(from, String.class);
            return value.map(v -> from.endsWith("timeout") ? millis(v) : v.trim())
                    .orElse(null);
        } catch (RuntimeException e) {
            return null; // an invalid value is reported by Tollgate's own validation, naming the property
        } finally {
            READING.set(false);
        }
    }

    private static String millis(String duration) {
        return Long.toString(dev.tollgate.core.Durations.parse(duration).toMillis());
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
