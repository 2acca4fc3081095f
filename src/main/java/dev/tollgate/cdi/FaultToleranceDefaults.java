package dev.tollgate.cdi;

import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.guard.GuardSettings;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * Makes Tollgate's settings (as {@link SettingsReader} reads them) the defaults of {@link
 * FaultTolerantRedisCaller}'s {@code @Timeout} and {@code @CircuitBreaker}, so one setting is one budget
 * and one breaker: {@code tollgate.redis.timeout} its {@code Timeout/value}, {@code
 * tollgate.breaker.failures} its {@code CircuitBreaker/requestVolumeThreshold}, {@code
 * tollgate.breaker.delay} its {@code CircuitBreaker/delay}, in milliseconds. It answers the method's own
 * keys ({@code <class>/call/<annotation>/<parameter>}) with an ordinal (50) below every standard source's,
 * so the same keys set by the user still win, while the class-level and global keys an application writes
 * for its own methods ({@code CircuitBreaker/delay}) leave these three alone.
 */
public final class FaultToleranceDefaults implements ConfigSource {

    private static final String CALLER = FaultTolerantRedisCaller.class.getName();
    static final String TIMEOUT = CALLER + "/call/Timeout/value";
    static final String FAILURES = CALLER + "/call/CircuitBreaker/requestVolumeThreshold";
    static final String DELAY = CALLER + "/call/CircuitBreaker/delay";

    /** Each key this source answers, and its value in the guard's settings. */
    private static final Map<String, Function<GuardSettings, Long>> KEYS = Map.of(
            TIMEOUT, g -> g.budget().toMillis(),
            FAILURES, g -> (long) g.failureThreshold(),
            DELAY, g -> g.breakerDelay().toMillis());

    private static final ThreadLocal<Boolean> READING = ThreadLocal.withInitial(() -> false);

    @Override
    public Set<String> getPropertyNames() {
        return KEYS.keySet();
    }

    @Override
    public String getValue(String name) {
        if (!KEYS.containsKey(name) || READING.get()) {
            return null;
        }
        READING.set(true);
        try {
            return value(name, new MicroProfilePropertySource(ConfigProvider.getConfig()));
        } finally {
            READING.set(false);
        }
    }

    /**
     * Fault Tolerance's key {@code name} as the {@code tollgate.*} settings in {@code source} make it (each
     * one's default when unset or invalid); null for a key this source does not answer.
     */
    static String value(String name, PropertySource source) {
        Function<GuardSettings, Long> setting = KEYS.get(name);
        return setting == null ? null : Long.toString(setting.apply(SettingsReader.guard(source)));
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
