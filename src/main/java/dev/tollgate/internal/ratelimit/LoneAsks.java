package dev.tollgate.internal.ratelimit;

import java.time.Duration;
import java.util.function.Function;

/**
 * The questions of lone checks made lately, by limit and client key: a hot client's charge and store key
 * are made once (its key normalised and hashed once), not on every call. Direct-mapped and without a
 * lock: a slot holds one immutable entry, a write may replace another thread's, and a lost entry costs
 * one hash. The limit is compared by identity (a reloaded limit is another object, so it never reads an
 * older limit's key); a client key longer than {@value #LONGEST_KEY} characters is not kept, so the memo
 * holds a few hundred kilobytes at most.
 *
 * <p>A check that names its limit is answered from the same memo without looking the name up ({@link
 * #of(Object, String, String, Function)}): an entry remembers the configuration it was made under (its
 * scope), and is that check's answer only while the configuration in force is the same object.
 */
final class LoneAsks {

    static final int SLOTS = 1024;
    static final int LONGEST_KEY = 256;

    /** @param scope the configuration a by-name check found {@code limit} in; null: made for the limit itself */
    private record Entry(LimitSpec limit, String clientKey, Ask ask, Object scope) {}

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
        if (!keeps(clientKey)) {
            return make(limit, clientKey);
        }
        int slot = slot(limit.name(), clientKey);
        Entry e = slots[slot];
        if (e != null && e.limit() == limit && e.clientKey().equals(clientKey)) {
            return e.ask();
        }
        return keep(slot, null, limit, clientKey, null);
    }

    /**
     * {@link #of(LimitSpec, String)} for the limit named {@code name} in the configuration {@code scope}:
     * the name is looked up ({@code limits}) only when the memo holds no question of it made under that
     * very configuration. A caller reads its configuration once and hands it as the scope, so a reload
     * (another object) is never answered with a limit it replaced.
     *
     * @param limits the limit of a name in {@code scope}; may throw for a name it does not know
     */
    Ask of(Object scope, String name, String clientKey, Function<String, LimitSpec> limits) {
        if (!keeps(clientKey)) {
            return make(limits.apply(name), clientKey);
        }
        int slot = slot(name, clientKey);
        Entry e = slots[slot];
        if (e != null
                && e.scope() == scope
                && e.limit().name().equals(name)
                && e.clientKey().equals(clientKey)) {
            return e.ask();
        }
        return keep(slot, e, limits.apply(name), clientKey, scope);
    }

    /** The store key of {@code clientKey}'s bucket under {@code limit} ({@link StoreKeys#of(LimitSpec, String)}). */
    String storeKey(LimitSpec limit, String clientKey) {
        return of(limit, clientKey).storeKey();
    }

    /** Whether a question of {@code clientKey} is kept: a key too long for the memo (or none) is made each time. */
    private static boolean keeps(String clientKey) {
        return clientKey != null && clientKey.length() <= LONGEST_KEY;
    }

    /**
     * Keeps the question of {@code clientKey} under {@code limit} in {@code slot}, made under {@code scope}:
     * {@code found}'s, when the slot held it already (made under another scope, or for the limit itself).
     */
    private Ask keep(int slot, Entry found, LimitSpec limit, String clientKey, Object scope) {
        Ask ask = found != null && found.limit() == limit && found.clientKey().equals(clientKey)
                ? found.ask()
                : make(limit, clientKey);
        slots[slot] = new Entry(limit, clientKey, ask, scope);
        return ask;
    }

    private Ask make(LimitSpec limit, String clientKey) {
        return new Ask(Charge.of(limit, clientKey), keys.of(limit, clientKey), Duration.ZERO, false);
    }

    private static int slot(String name, String clientKey) {
        int h = name.hashCode() * 31 + clientKey.hashCode();
        return (h ^ (h >>> 16)) & (SLOTS - 1);
    }
}
