package dev.tollgate.internal.lock;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Whether a Redis may evict keys, read from {@code INFO memory}. A lock key evicted under memory
 * pressure is a lock taken twice, so locks need {@code maxmemory-policy noeviction} (or no memory
 * limit at all), or a Redis of their own.
 */
final class EvictionPolicy {

    private EvictionPolicy() {}

    /**
     * The warning to log for {@code infos} ({@code INFO memory} of each node), or empty when no node
     * can evict: its policy is {@code noeviction}, or it has no {@code maxmemory}.
     */
    static Optional<String> warning(List<String> infos, String where) {
        TreeSet<String> evicting = new TreeSet<>();
        for (String info : infos) {
            String policy = field(info, "maxmemory_policy");
            String max = field(info, "maxmemory");
            if (!policy.isEmpty() && !"noeviction".equals(policy) && !"0".equals(max)) {
                evicting.add(policy + " with maxmemory " + field(info, "maxmemory_human"));
            }
        }
        if (evicting.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("Tollgate: Redis at " + where + " evicts keys when full (maxmemory-policy "
                + String.join(", ", evicting) + "): a lock key it evicts is a lock another server can"
                + " take while its holder still runs. Give locks maxmemory-policy noeviction, or a Redis of"
                + " their own. Fencing tokens stay increasing all the same (never below Redis TIME in"
                + " microseconds).");
    }

    private static String field(String info, String name) {
        for (String line : info.split("\r?\n")) {
            if (line.startsWith(name + ":")) {
                return line.substring(name.length() + 1).trim();
            }
        }
        return "";
    }
}
