package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.redis.KeyPrefix;
import java.time.Duration;
import java.util.regex.Pattern;

/** Lock names, their Redis keys and channel (under a key prefix), holders' names, and times to live as Redis takes them. */
public final class LockNames {

    private static final Pattern NAME = LimitRules.LOCK_NAME;
    private static final Pattern HOLDER = Pattern.compile("[!-~]{1,128}");

    /** The rule of a holder's name ({@code HOLDER}). */
    public static final String HOLDER_RULE = "1-128 printable ASCII characters without spaces";

    private LockNames() {}

    public static String check(String name) {
        return DistributedLock.checkName(name);
    }

    /** {@code holder} when it names a holder: 1-128 printable ASCII characters, no space. */
    public static String checkHolder(String holder) {
        if (holder == null || !HOLDER.matcher(holder).matches()) {
            throw new IllegalArgumentException("lock holder must be " + HOLDER_RULE + ", but was '" + holder + "'");
        }
        return holder;
    }

    /** This JVM as a holder: {@code <pid>@<host>}, what the JVM calls itself, other characters as {@code _}. */
    public static String thisProcess() {
        String name = java.lang.management.ManagementFactory.getRuntimeMXBean()
                .getName()
                .replaceAll("[^!-~]", "_");
        return name.isEmpty() ? "unnamed" : name.substring(0, Math.min(name.length(), 128));
    }

    /**
     * The lock's key, {@code [<key prefix>]tollgate:lock:{<name>}}; the braces put it in one cluster slot
     * with its {@link #fenceKey}, whatever the prefix (which holds no brace).
     */
    public static String lockKey(KeyPrefix prefix, String name) {
        return prefix.apply("tollgate:lock:{" + name + "}");
    }

    /** The name in a {@link #lockKey} under {@code prefix}. */
    public static String nameOf(KeyPrefix prefix, String lockKey) {
        String key = prefix.strip(lockKey);
        return key.substring("tollgate:lock:{".length(), key.length() - 1);
    }

    /** The counter of the lock's fencing tokens, which never expires so tokens only grow. */
    public static String fenceKey(KeyPrefix prefix, String name) {
        return prefix.apply("tollgate:fence:{" + name + "}");
    }

    /** The channel of release notices: each message is the name of a lock just released. */
    public static String releasedChannel(KeyPrefix prefix) {
        return prefix.apply(RELEASED);
    }

    /** The channel of release notices without a key prefix. */
    static final String RELEASED = "tollgate:lock-released";

    /**
     * The index of the lock names taken lately ({@link LockIndex}), which operators' listings read: one
     * key (under the key prefix), in a slot of its own on a cluster.
     */
    static String indexKey(KeyPrefix prefix) {
        return prefix.apply("tollgate:lock-names");
    }

    /** {@code ttl} in whole milliseconds, rounded up; {@link IllegalArgumentException} unless &gt; 0. */
    static long ttlMillis(String name, Duration ttl) {
        return Durations.positiveMillis("lock '" + name + "'", ttl);
    }
}
