package dev.tollgate.testing;

import java.util.Locale;

/**
 * The test harness's own settings. Each is a system property ({@code mvn verify -Dname=value}, which
 * Surefire and Failsafe hand to the tests), else the environment variable of the same name in upper
 * case with {@code .} and {@code -} as {@code _}, as MicroProfile Config maps names.
 */
public final class HarnessSettings {

    /** {@code auto} (a container when an engine answers, else the binary), {@code container} or {@code binary}. */
    public static final String REDIS_BACKEND = "tollgate.test.redis-backend";

    /** The Redis image for the container backend. */
    public static final String REDIS_IMAGE = "tollgate.test.redis-image";

    static final String DEFAULT_REDIS_IMAGE = "redis:7";

    private HarnessSettings() {}

    static String get(String name, String defaultValue) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            value = System.getenv(envName(name));
        }
        return value == null || value.isBlank() ? defaultValue : value.trim();
    }

    static String envName(String name) {
        return name.replaceAll("[.-]", "_").toUpperCase(Locale.ROOT);
    }
}
