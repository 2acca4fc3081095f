package dev.tollgate.lock;

import dev.tollgate.core.Durations;
import java.time.Duration;
import java.util.regex.Pattern;

/** Lock names, their Redis keys, and times to live as Redis takes them. */
public final class LockNames {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    private LockNames() {}

    public static String check(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(
                    "lock name must be 1-128 letters, digits, '_', '.' or '-', but was '" + name + "'");
        }
        return name;
    }

    /** The lock's key; the braces put it in one cluster slot with its {@link #fenceKey}. */
    static String lockKey(String name) {
        return "tollgate:lock:{" + name + "}";
    }

    /** The counter of the lock's fencing tokens, which never expires so tokens only grow. */
    static String fenceKey(String name) {
        return "tollgate:fence:{" + name + "}";
    }

    /** {@code ttl} in whole milliseconds, rounded up; {@link IllegalArgumentException} unless &gt; 0. */
    static long ttlMillis(String name, Duration ttl) {
        return Durations.positiveMillis("lock '" + name + "'", ttl);
    }
}
