package dev.tollgate.counter;

import dev.tollgate.core.Durations;
import java.time.Duration;
import java.util.regex.Pattern;

/** Counter names, keys and expiries. */
final class CounterNames {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");

    private CounterNames() {}

    static String key(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "counter name must be 1-200 letters, digits, '_', '.', ':' or '-', but was '" + name + "'");
        }
        return "tollgate:counter:{" + name + "}";
    }

    static long ttlMillis(String name, Duration ttl) {
        return Durations.positiveMillis("counter '" + name + "'", ttl);
    }
}
