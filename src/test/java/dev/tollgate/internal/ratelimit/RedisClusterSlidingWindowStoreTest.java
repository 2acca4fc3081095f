package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

/**
 * The sliding-window contract (exactness at 1, 8 and 32 in flight, never more than the limit in any window,
 * none denied early) on a 3-master Redis Cluster: each key's log on the master that owns its slot.
 */
class RedisClusterSlidingWindowStoreTest extends SlidingWindowStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.SLIDING_WINDOW, RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
    }

    @AfterAll
    static void close() {
        store.close();
    }

    @Override
    protected RateLimitStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return cluster;
    }

    @Override
    protected long newestEntryMicros(String key) {
        try (Jedis j = cluster.admin(cluster.ownerOf(key))) {
            List<Tuple> newest = j.zrangeWithScores(key, -1, -1);
            return newest.isEmpty() ? -1 : (long) newest.get(0).getScore();
        }
    }
}
