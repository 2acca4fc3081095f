package dev.tollgate.internal.counter;

import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.redis.KeyPrefix;
import java.time.Duration;
import java.util.regex.Pattern;

/** Counter names, keys (under a key prefix) and expiries. */
final class CounterNames {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");

    private CounterNames() {}

    /** {@code name} when it names a counter; {@link IllegalArgumentException} saying what a name is. */
    static String check(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "counter name must be 1-200 letters, digits, '_', '.', ':' or '-', but was '" + name + "'");
        }
        return name;
    }

    /** The counter's key: {@code [<key prefix>]tollgate:counter:{<name>}}. */
    static String key(KeyPrefix prefix, String name) {
        return prefix.apply("tollgate:counter:{" + check(name) + "}");
    }

    static long ttlMillis(String name, Duration ttl) {
        return Durations.positiveMillis("counter '" + name + "'", ttl);
    }
}
