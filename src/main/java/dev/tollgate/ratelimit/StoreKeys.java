package dev.tollgate.ratelimit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Store keys: {@code tg:<algorithm>:{<limit>:<hash>}}, e.g. {@code tg:tk:{api:6Hq...}}. The client key
 * (an address, a user name, a header: whose bucket a call spends from) is cut at {@value
 * #MAX_CLIENT_KEY_LENGTH} characters and hashed, so its length and characters never reach the store,
 * and the braces are a Redis Cluster hash tag, so one decision always touches one slot. The algorithm
 * ({@link Algorithm#keyCode()}) is part of the key: a limit whose algorithm changes between deploys
 * (or differs between servers during one) starts fresh buckets instead of reading another algorithm's
 * state, which Redis would refuse ({@code WRONGTYPE}: a sorted set is not a hash).
 */
public final class StoreKeys {

    /** Prefix of every key Tollgate writes. */
    public static final String PREFIX = "tg:";

    /** Longest client key kept; longer ones are cut before hashing, so a header cannot make us hash megabytes. */
    public static final int MAX_CLIENT_KEY_LENGTH = 512;

    private StoreKeys() {}

    /** The store key of {@code clientKey}'s bucket under limit {@code limitName} counted by {@code algorithm}. */
    public static String of(Algorithm algorithm, String limitName, String clientKey) {
        return PREFIX + algorithm.keyCode() + ":{" + limitName + ":" + hash(clientKey) + "}";
    }

    /** The store key of {@code clientKey}'s token bucket under limit {@code limitName}. */
    public static String of(String limitName, String clientKey) {
        return of(Algorithm.TOKEN_BUCKET, limitName, clientKey);
    }

    /**
     * The key of the operator's rules (a block, an override) for the client of {@code storeKey}: {@code
     * tg:op:} and the store key's hash tag, so it lies in the bucket's Cluster slot and one decision
     * script reads both. One per client of a limit, whatever its algorithm.
     */
    public static String rules(String storeKey) {
        if (!hasRules(storeKey)) {
            throw new IllegalArgumentException("not a store key: " + storeKey);
        }
        return PREFIX + "op:" + storeKey.substring(storeKey.indexOf('{'));
    }

    /**
     * The key the earlier Tollgate kept {@code storeKey}'s token bucket at ({@code tg:tb:}, a hash), which
     * a decision reads when the bucket has no key of its own yet (a rolling upgrade: the tokens carry
     * over, and servers of the earlier version go on with theirs); null for any other key. Same hash tag:
     * same Cluster slot.
     */
    public static String earlier(String storeKey) {
        String bucket = PREFIX + Algorithm.TOKEN_BUCKET.keyCode() + ":{";
        return storeKey.startsWith(bucket) && hasRules(storeKey)
                ? PREFIX + "tb:" + storeKey.substring(bucket.length() - 1)
                : null;
    }

    /** Whether {@code storeKey} ends in a hash tag, as every key of {@link #of} does, and so has {@link #rules}. */
    public static boolean hasRules(String storeKey) {
        return storeKey.endsWith("}") && storeKey.indexOf('{') >= 0;
    }

    /** The store key of {@code clientKey}'s running calls under concurrency limit {@code limitName}: {@code tg:in:{<limit>:<hash>}}. */
    public static String inFlight(String limitName, String clientKey) {
        return PREFIX + "in:{" + limitName + ":" + hash(clientKey) + "}";
    }

    /**
     * What a client key becomes in store keys: 22 characters that name the client in logs and operator
     * answers without saying who it is.
     */
    public static String clientHash(String clientKey) {
        return hash(clientKey);
    }

    // One digest per thread: looking one up through the security providers on every check costs more
    // than the hashing itself.
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(StoreKeys::sha256);

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** 128 bits of SHA-256 of the first 512 characters, base64url without padding: 22 characters whatever the input. */
    static String hash(String clientKey) {
        String kept =
                clientKey.length() > MAX_CLIENT_KEY_LENGTH ? clientKey.substring(0, MAX_CLIENT_KEY_LENGTH) : clientKey;
        byte[] digest = SHA_256.get().digest(kept.getBytes(StandardCharsets.UTF_8));
        return BASE64URL.encodeToString(Arrays.copyOf(digest, 16));
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }
}
