package dev.tollgate.internal.ratelimit;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.internal.redis.KeyPrefix;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Store keys: {@code [<key prefix>]tg:<algorithm>:{<limit>:<hash>}}, e.g. {@code tg:tk:{api:6Hq...}}, or
 * with {@code tollgate.redis.key-prefix=shop:} {@code shop:tg:tk:{api:6Hq...}}. The client key (an
 * address, a user name, a header: whose bucket a call spends from) is normalised as its limit says
 * ({@link KeyNormalization}) and hashed whole, so its length and characters never reach the store; a key
 * longer than {@value #MAX_CLIENT_KEY_LENGTH} characters is refused ({@link ClientKeyTooLongException}),
 * never cut, since two long keys alike in their first characters would share a bucket. The braces are a
 * Redis Cluster hash tag, so one decision always touches one slot, whatever the prefix (which holds no
 * brace). The algorithm ({@link Algorithm#keyCode()}) is part of the key: a limit whose algorithm changes
 * between deploys (or differs between servers during one) starts fresh buckets instead of reading
 * another algorithm's state, which Redis would refuse ({@code WRONGTYPE}: a sorted set is not a hash).
 *
 * <p>Every key of a limit's client (its bucket, its operator rules) and
 * of a concurrency limit's client, and the operators' channel, is made here, under one {@link KeyPrefix}.
 */
public final class StoreKeys {

    /** What every key of a limit or concurrency limit starts with after the key prefix. */
    public static final String PREFIX = "tg:";

    /**
     * The longest client key taken, in characters: 8 KiB holds any bearer token or JWT a server accepts in
     * a header, and hashing it costs microseconds; anything longer is refused, not hashed.
     */
    public static final int MAX_CLIENT_KEY_LENGTH = 8192;

    /** The keys Tollgate has always written: no key prefix. */
    public static final StoreKeys DEFAULT = new StoreKeys(KeyPrefix.NONE);

    private final KeyPrefix prefix;

    private StoreKeys(KeyPrefix prefix) {
        this.prefix = prefix;
    }

    /** The keys under {@code prefix}. */
    public static StoreKeys in(KeyPrefix prefix) {
        if (prefix == null) {
            throw new IllegalArgumentException("prefix must not be null");
        }
        return prefix.equals(KeyPrefix.NONE) ? DEFAULT : new StoreKeys(prefix);
    }

    /** The key prefix these keys are under. */
    public KeyPrefix prefix() {
        return prefix;
    }

    /**
     * The store key of {@code clientKey}'s bucket under {@code limit}: the key normalised as the limit says,
     * then hashed.
     *
     * @throws ClientKeyTooLongException when the key is longer than {@value #MAX_CLIENT_KEY_LENGTH} characters
     */
    public String of(LimitSpec limit, String clientKey) {
        checkLength(limit.name(), clientKey);
        return of(limit.algorithm(), limit.name(), limit.keyNormalization().apply(clientKey));
    }

    /**
     * The store key of {@code clientKey}'s bucket under limit {@code limitName} counted by {@code algorithm},
     * the key taken as it is.
     *
     * @throws ClientKeyTooLongException when the key is longer than {@value #MAX_CLIENT_KEY_LENGTH} characters
     */
    public String of(Algorithm algorithm, String limitName, String clientKey) {
        return prefix.apply(PREFIX + algorithm.keyCode() + ":{" + limitName + ":" + hash(limitName, clientKey) + "}");
    }

    /** The store key of {@code clientKey}'s token bucket under limit {@code limitName}. */
    public String of(String limitName, String clientKey) {
        return of(Algorithm.TOKEN_BUCKET, limitName, clientKey);
    }

    /**
     * The store key of {@code clientKey}'s running calls under concurrency limit {@code limitName}: {@code
     * [<key prefix>]tg:in:{<limit>:<hash>}}.
     */
    public String inFlight(String limitName, String clientKey) {
        return prefix.apply(PREFIX + "in:{" + limitName + ":" + hash(limitName, clientKey) + "}");
    }

    /** The channel on which servers tell each other of an operator's resets: {@code [<key prefix>]tg:operator}. */
    public String operatorChannel() {
        return prefix.apply(PREFIX + "operator");
    }

    /**
     * The key of the operator's rules (a block, an override) for the client of {@code storeKey}: the
     * store key with {@code op} for its algorithm ({@code tg:op:} and the store key's hash tag, under the
     * same key prefix), so it lies in the bucket's Cluster slot and one decision script reads both. One
     * per client of a limit, whatever its algorithm.
     */
    public static String rules(String storeKey) {
        if (!hasRules(storeKey)) {
            throw new IllegalArgumentException("not a store key: " + storeKey);
        }
        return withCode(storeKey, "op");
    }

    /**
     * The key of a call's idempotency record beside the bucket at {@code storeKey}: {@code
     * [<key prefix>]tg:ik:{<limit>:<hash>}:<fingerprint>}, in the bucket's Cluster slot, so the decision's
     * script reads and writes it in the same step.
     */
    public static String replay(String storeKey, Repeat repeat) {
        if (!hasRules(storeKey)) {
            throw new IllegalArgumentException("not a store key: " + storeKey);
        }
        return withCode(storeKey, "ik") + ":" + repeat.fingerprint();
    }

    /**
     * The key of the usage ledger of the client of {@code storeKey} ({@link UsageLedger}): {@code
     * [<key prefix>]tg:us:{<limit>:<hash>}}, in the bucket's Cluster slot, whatever the algorithm.
     */
    public static String usage(String storeKey) {
        if (!hasRules(storeKey)) {
            throw new IllegalArgumentException("not a store key: " + storeKey);
        }
        return withCode(storeKey, "us");
    }

    /**
     * The key of the leases out of the bucket at {@code storeKey} ({@code token-bucket-lease.lua}): {@code
     * [<key prefix>]tg:lo:{<limit>:<hash>}}, a hash of the servers holding a lease of it, in the bucket's
     * Cluster slot.
     */
    public static String leasesOut(String storeKey) {
        if (!hasRules(storeKey)) {
            throw new IllegalArgumentException("not a store key: " + storeKey);
        }
        return withCode(storeKey, "lo");
    }

    /** What the usage ledgers of limit {@code limitName} match, for a {@code SCAN}: {@code [<key prefix>]tg:us:{<limit>:*}}. */
    public String usagePattern(String limitName) {
        return prefix.apply(PREFIX + "us:{" + limitName + ":*}");
    }

    /** 128 bits of SHA-256 of {@code text}, base64url: what an idempotency record's key ends in. */
    static String fingerprint(String text) {
        byte[] digest = SHA_256.get().digest(text.getBytes(StandardCharsets.UTF_8));
        return BASE64URL.encodeToString(Arrays.copyOf(digest, 16));
    }

    /** Whether {@code storeKey} ends in a hash tag after a code, as every key of {@link #of} does, and so has {@link #rules}. */
    public static boolean hasRules(String storeKey) {
        int brace = storeKey.indexOf('{');
        return storeKey.endsWith("}")
                && brace > 0
                && storeKey.charAt(brace - 1) == ':'
                && !code(storeKey).isEmpty();
    }

    /** The algorithm's code of a store key: what lies between the last two colons before its hash tag. */
    private static String code(String storeKey) {
        int brace = storeKey.indexOf('{');
        if (brace < 2) {
            return "";
        }
        int start = storeKey.lastIndexOf(':', brace - 2) + 1;
        return storeKey.substring(start, brace - 1);
    }

    private static String withCode(String storeKey, String code) {
        int brace = storeKey.indexOf('{');
        int start = storeKey.lastIndexOf(':', brace - 2) + 1;
        return storeKey.substring(0, start) + code + ":" + storeKey.substring(brace);
    }

    /**
     * What a client key becomes in store keys: 22 characters that name the client in logs and operator
     * answers without saying who it is.
     *
     * @throws ClientKeyTooLongException when the key is longer than {@value #MAX_CLIENT_KEY_LENGTH} characters
     */
    public static String clientHash(String clientKey) {
        return hash("?", clientKey);
    }

    /**
     * {@code clientKey} when it is at most {@value #MAX_CLIENT_KEY_LENGTH} characters long: the one check of
     * a client key's length, made before a key is normalised or hashed.
     */
    static String checkLength(String limitName, String clientKey) {
        if (clientKey.length() > MAX_CLIENT_KEY_LENGTH) {
            throw new ClientKeyTooLongException(limitName, clientKey.length(), MAX_CLIENT_KEY_LENGTH);
        }
        return clientKey;
    }

    // One digest per thread: looking one up through the security providers on every check costs more
    // than the hashing itself.
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(StoreKeys::sha256);

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    /** 128 bits of SHA-256 of the whole key, base64url without padding: 22 characters whatever the input. */
    private static String hash(String limitName, String clientKey) {
        byte[] digest = SHA_256.get().digest(checkLength(limitName, clientKey).getBytes(StandardCharsets.UTF_8));
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
