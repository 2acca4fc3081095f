package dev.tollgate.testing;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import redis.clients.jedis.Jedis;

/**
 * A token bucket as Redis holds it ({@code bucket.lua}): one decimal integer {@code <W><s>}, the whole
 * tokens {@code W} (below 0: a debt) at the instant {@code s}, exactly 16 digits of microseconds.
 */
public record StoredBucket(long wholeTokens, long instantMicros) {

    private static final Pattern VALUE = Pattern.compile("(-?\\d*)(\\d{16})");

    /** The bucket at {@code key}, or null when there is none. */
    public static StoredBucket read(Jedis j, String key) {
        String v = j.get(key);
        return v == null ? null : parse(v);
    }

    public static StoredBucket parse(String v) {
        Matcher m = VALUE.matcher(v);
        if (!m.matches()) {
            throw new AssertionError("not a bucket: " + v);
        }
        long w = m.group(1).isEmpty() ? 0 : Long.parseLong(m.group(1));
        return new StoredBucket(w, Long.parseLong(m.group(2)));
    }

    /** The value a bucket holding {@code wholeTokens} at {@code instantMicros} is stored as. */
    public static String value(long wholeTokens, long instantMicros) {
        return (wholeTokens == 0 ? "" : Long.toString(wholeTokens)) + String.format("%016d", instantMicros);
    }
}
