package dev.tollgate.internal.redis;

import java.util.regex.Pattern;

/**
 * What every Redis key and channel Tollgate uses starts with ({@code tollgate.redis.key-prefix}), so
 * that applications or environments sharing one Redis database keep their buckets, operator rules,
 * locks and counters apart: {@code shop-prod:} makes {@code tg:tk:{api:...}} {@code
 * shop-prod:tg:tk:{api:...}}. Empty by default, which keeps every key name as it always was.
 *
 * <p>At most {@value #MAX_LENGTH} letters, digits, {@code _ . : / -}: no brace (a Redis Cluster hash
 * tag is the first {@code {...}} of a key, and the prefix must not move it off the bucket's own), no
 * space or control character, and no {@code * ? [ ] \} (the console lists locks with a {@code SCAN}
 * pattern, where those would match other applications' keys).
 *
 * @param value the prefix; "" for none
 */
public record KeyPrefix(String value) {

    /** The longest prefix. */
    public static final int MAX_LENGTH = 64;

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_.:/-]{0," + MAX_LENGTH + "}");

    /** No prefix: every key as Tollgate has always named it. */
    public static final KeyPrefix NONE = new KeyPrefix("");

    /** What a prefix may hold, for messages. */
    public static final String RULE =
            "at most " + MAX_LENGTH + " letters, digits, '_', '.', ':', '/' or '-' (no braces, spaces or '*?[]\\')";

    public KeyPrefix {
        if (value == null || !ALLOWED.matcher(value).matches()) {
            throw new IllegalArgumentException("a key prefix must be " + RULE + ", but was '" + shown(value) + "'");
        }
    }

    /** The prefix {@code text} names (its surrounding spaces ignored); {@link IllegalArgumentException} unless valid. */
    public static KeyPrefix parse(String text) {
        return new KeyPrefix(text == null ? null : text.trim());
    }

    /** {@code key} in this namespace. */
    public String apply(String key) {
        return value.isEmpty() ? key : value + key;
    }

    /** {@code key} without this prefix; {@link IllegalArgumentException} when it does not start with it. */
    public String strip(String key) {
        if (!key.startsWith(value)) {
            throw new IllegalArgumentException("key '" + key + "' is not under the prefix '" + value + "'");
        }
        return key.substring(value.length());
    }

    private static String shown(String v) {
        return v == null ? "null" : v.length() > 80 ? v.substring(0, 80) + "..." : v;
    }
}
