package dev.tollgate.internal.ratelimit;

import dev.tollgate.LimitRules;

/**
 * A call's idempotency key, folded with what the call does: its fingerprint names the call's record
 * beside each bucket it spends from ({@link StoreKeys#replay}), so a call with the same key but another
 * method or path is no repeat. Only the fingerprint reaches the store: 22 characters of SHA-256,
 * whatever the key.
 *
 * @param fingerprint the hash of the method, the path and the key
 */
public record Repeat(String fingerprint) {

    public Repeat {
        if (fingerprint == null || fingerprint.isEmpty()) {
            throw new IllegalArgumentException("fingerprint is required");
        }
    }

    /**
     * The repeat of {@code idempotencyKey} on {@code method} and {@code path} (for a call from code, what
     * the caller names it by, such as its limit).
     *
     * @throws IllegalArgumentException when the key breaks {@link LimitRules#IDEMPOTENCY_KEY_RULE}
     */
    public static Repeat of(String idempotencyKey, String method, String path) {
        LimitRules.idempotencyKeyProblem(idempotencyKey).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        return new Repeat(StoreKeys.fingerprint(method + " " + path + "\n" + idempotencyKey));
    }
}
