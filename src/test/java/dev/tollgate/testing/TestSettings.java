package dev.tollgate.testing;

import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/** Settings from {@code tollgate.*} properties, as a user writes them. */
public final class TestSettings {

    private TestSettings() {}

    /** {@code read("tollgate.redis.url", url, "tollgate.limits.api.capacity", "10", ...)}. */
    public static TollgateSettings read(String... propertiesAndValues) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < propertiesAndValues.length; i += 2) {
            properties.put(propertiesAndValues[i], propertiesAndValues[i + 1]);
        }
        return SettingsReader.read(PropertySource.of(properties));
    }

    /** The properties of a quota of {@code capacity} calls that never refills (so it persists), one bucket for everyone. */
    public static String[] quota(String name, long capacity) {
        String p = "tollgate.limits." + name + ".";
        return new String[] {
            p + "capacity",
            Long.toString(capacity),
            p + "refill-tokens",
            "0",
            p + "persist",
            "true",
            p + "key",
            "global"
        };
    }
}
