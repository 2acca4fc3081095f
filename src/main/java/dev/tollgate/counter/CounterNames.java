package dev.tollgate.counter;

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
        if (ttl == null || ttl.isNegative() || ttl.isZero()) {
            throw new IllegalArgumentException("counter '" + name + "': ttl must be > 0, but was " + ttl);
        }
        long ms = ttl.toMillis();
        return ttl.equals(Duration.ofMillis(ms)) ? ms : ms + 1;
    }
}
