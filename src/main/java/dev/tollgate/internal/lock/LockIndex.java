package dev.tollgate.internal.lock;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisCommands;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;

/**
 * The names of the locks taken lately, beside the locks in Redis ({@link LockNames#indexKey}): what an
 * operator's listing reads instead of scanning the keyspace, so that it costs Redis work bounded by the
 * names in the index ({@value #KEPT} at most), never by the size of the database.
 *
 * <p>A sorted set: each name scored by the fencing token of its latest acquisition. An acquisition
 * records its name after it took the lock, in a second round trip (a lock's script stays in the lock's
 * slot); a listing removes the names it found free unless they were taken again since (their score
 * grew). Beyond {@value #KEPT} names, those taken longest ago leave.
 */
final class LockIndex {

    private static final Logger LOG = Logger.getLogger(LockIndex.class.getName());

    /** The most names the index keeps, and so the most locks a listing reads. */
    static final int KEPT = 1000;

    private static final LuaScript RECORD = LuaScript.named("lock-index");
    private static final LuaScript PRUNE = LuaScript.named("lock-index-prune");

    private final GuardedRedis redis;
    private final String key;

    LockIndex(GuardedRedis redis, KeyPrefix prefix) {
        this.redis = redis;
        this.key = LockNames.indexKey(prefix);
    }

    /**
     * Records that {@code name} was just taken with {@code fencingToken}. The lock is held whether or not
     * this succeeds: a name Redis did not record is missing from listings until its next acquisition.
     */
    void taken(String name, long fencingToken) {
        try {
            redis.eval(
                    "record lock '" + name + "' in the lock index",
                    RECORD,
                    List.of(key),
                    List.of(name, Long.toString(fencingToken), Integer.toString(KEPT)));
        } catch (StoreUnavailableException e) {
            LOG.fine(() -> "Tollgate: lock '" + name + "' is held, but " + e.getMessage()
                    + ": it is not listed for operators until it is taken again");
        }
    }

    /** The names in the index, the latest taken first, each with the fencing token it was recorded with. */
    Map<String, Long> names() {
        List<RedisCommands.Scored> read =
                redis.call("list the locks", key, () -> redis.link().zrevrangeWithScores(key, 0, KEPT - 1));
        Map<String, Long> names = new LinkedHashMap<>();
        read.forEach(t -> names.put(t.member(), (long) t.score()));
        return names;
    }

    /** Removes the names found free, each unless its score is no longer the one read (taken again since). */
    void free(Map<String, Long> found) {
        if (found.isEmpty()) {
            return;
        }
        List<String> args = new ArrayList<>();
        found.forEach((name, token) -> {
            args.add(name);
            args.add(Long.toString(token));
        });
        redis.eval("drop free locks from the lock index", PRUNE, List.of(key), args);
    }
}
