package dev.tollgate.internal.ratelimit;

import java.time.Duration;

/**
 * The questions of lone checks made lately, by limit and client key: a hot client's charge and store key
 * are made once (its key normalised and hashed once), not on every call. Direct-mapped and without a
 * lock: a slot holds one immutable entry, a write may replace another thread's, and a lost entry costs
 * one hash. The limit is compared by identity (a reloaded limit is another object, so it never reads an
 * older limit's key); a client key longer than {@value #LONGEST_KEY} characters is not kept, so the memo
 * holds a few hundred kilobytes at most.
 */
final class LoneAsks {

    static final int SLOTS = 1024;
    static final int LONGEST_KEY = 256;

    private record Entry(LimitSpec limit, String clientKey, Ask ask) {}

    private final StoreKeys keys;
    private final Entry[] slots = new Entry[SLOTS];

    LoneAsks(StoreKeys keys) {
        this.keys = keys;
    }

    /**
     * A lone check's question: {@code clientKey}'s charge under the limit's own policy and cost, its store
     * key, no wait, no repeat.
     *
     * @throws dev.tollgate.ClientKeyTooLongException when the key is too long for a bucket
     */
    Ask of(LimitSpec limit, String clientKey) {
        if (clientKey == null || clientKey.length() > LONGEST_KEY) {
            return make(limit, clientKey);
        }
        int slot = slot(limit, clientKey);
        Entry e = slots[slot];
        if (e != null && e.limit() == limit && e.clientKey().equals(clientKey)) {
            return e.ask();
        }
        Ask ask = make(limit, clientKey);
        slots[slot] = new Entry(limit, clientKey, ask);
        return ask;
    }

    /** The store key of {@code clientKey}'s bucket under {@code limit} ({@link StoreKeys#of(LimitSpec, String)}). */
    String storeKey(LimitSpec limit, String clientKey) {
        return of(limit, clientKey).storeKey();
    }

    private Ask make(LimitSpec limit, String clientKey) {
        return new Ask(Charge.of(limit, clientKey), keys.of(limit, clientKey), Duration.ZERO, false);
    }

    private static int slot(LimitSpec limit, String clientKey) {
        int h = limit.name().hashCode() * 31 + clientKey.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
