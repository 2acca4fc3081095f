package dev.tollgate.ratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Store keys: {@code tollgate:{<limit>:<hash>}}. The client key (an address, a user name, a header) is
 * hashed so its length and characters never reach the store, and the braces are a Redis Cluster hash
 * tag, so one decision always touches one slot.
 */
public final class BucketKeys {

    /** Prefix of every key Tollgate writes. */
    public static final String PREFIX = "tollgate:";

    private BucketKeys() {}

    /** The store key of {@code clientKey}'s bucket under limit {@code limitName}. */
    public static String of(String limitName, String clientKey) {
        return PREFIX + "{" + limitName + ":" + hash(clientKey) + "}";
    }

    // One digest per thread: looking one up through the security providers on every check costs more
    // than the hashing itself.
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(BucketKeys::sha256);

    /** 128 bits of SHA-256, base64url without padding: 22 characters whatever the input. */
    static String hash(String clientKey) {
        byte[] digest = SHA_256.get().digest(clientKey.getBytes(StandardCharsets.UTF_8));
        return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
