package dev.tollgate.experiments.race;

import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The article's naive check: read the count, decide in Java, write it back. Two round trips, and
 * nothing stops another client's write landing between them.
 */
final class NaiveCheck {

    static final String FIELD = "tokens";

    private NaiveCheck() {}

    static boolean check(UnifiedJedis redis, String key, long capacity) {
        long t = tokens(redis.hmget(key, FIELD), capacity);
        if (t < 1) {
            return false;
        }
        redis.hset(key, FIELD, Long.toString(t - 1));
        return true;
    }

    /** A missing bucket is full. */
    static long tokens(List<String> reply, long capacity) {
        String v = reply.get(0);
        return v == null ? capacity : Long.parseLong(v);
    }
}
