package dev.tollgate.internal.engine;

import dev.tollgate.LimitRules;
import dev.tollgate.internal.ratelimit.Repeat;
import java.util.Optional;

/**
 * What an adapter read of a call's idempotency key: the key as the caller sent it (null: none) and
 * what the call does (an HTTP request's method and path), which {@link Admissions} checks ({@link
 * LimitRules#idempotencyKeyProblem}) and folds into a {@link Repeat} for the limits that keep records.
 *
 * @param key the key as sent; an HTTP structured-field string's quotes are not part of it
 * @param method what the call does (an HTTP method)
 * @param path where (an HTTP request's path)
 */
public record IdempotencyKey(String key, String method, String path) {

    /** A call without a key. */
    public static final IdempotencyKey NONE = new IdempotencyKey(null, "", "");

    public IdempotencyKey {
        if (method == null || path == null) {
            throw new IllegalArgumentException("method and path are required");
        }
    }

    /**
     * The key of an HTTP header's value: an RFC 8941 string ({@code "8e03978e-..."}, as the IETF draft
     * writes it) or the bare token; null: no header.
     */
    public static IdempotencyKey ofHeader(String value, String method, String path) {
        if (value == null) {
            return new IdempotencyKey(null, method, path);
        }
        String v = value.trim();
        boolean quoted = v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"");
        return new IdempotencyKey(quoted ? v.substring(1, v.length() - 1) : v, method, path);
    }

    /** Whether the call carries a key. */
    public boolean present() {
        return key != null;
    }

    /** What is wrong with the key; empty when it is a key. */
    Optional<String> problem() {
        return LimitRules.idempotencyKeyProblem(key);
    }

    /** The repeat the limits spend under; the key must have no {@link #problem()}. */
    Repeat repeat() {
        return Repeat.of(key, method, path);
    }
}
