package dev.tollgate.internal.lock;

import dev.tollgate.LockHandle;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The resource that a lock guards in the fencing tests: a list of elements in a Redis key outside the
 * lock, changed by read-modify-write. Fenced, it refuses a write whose fencing token is lower than
 * the highest it has accepted, atomically with the write.
 */
final class FencedResource {

    static final String KEY = "resource:{value}";
    static final String LAST_TOKEN = "resource:{last-token}";

    private static final String FENCED_WRITE = """
            local last = tonumber(redis.call('GET', KEYS[2]) or '0')
            if tonumber(ARGV[2]) >= last then
              redis.call('SET', KEYS[1], ARGV[1])
              redis.call('SET', KEYS[2], ARGV[2])
              return 1
            end
            return 0
            """;

    private FencedResource() {}

    static String read(UnifiedJedis jedis) {
        String v = jedis.get(KEY);
        return v == null ? "" : v;
    }

    /** Writes {@code value}; fenced, only if {@code lock}'s token is at least the last one accepted. */
    static boolean write(UnifiedJedis jedis, String value, LockHandle lock, boolean fenced) {
        if (!fenced) {
            jedis.set(KEY, value);
            return true;
        }
        Object r =
                jedis.eval(FENCED_WRITE, List.of(KEY, LAST_TOKEN), List.of(value, Long.toString(lock.fencingToken())));
        return (Long) r == 1L;
    }

    static String append(String value, String element) {
        return value.isEmpty() ? element : value + "," + element;
    }

    static List<String> elements(String value) {
        return value.isEmpty() ? List.of() : List.of(value.split(","));
    }
}
