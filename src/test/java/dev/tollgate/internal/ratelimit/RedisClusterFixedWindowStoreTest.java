package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The fixed-window contract (exactness at 1, 8 and 32 in flight, the boundary burst) on a 3-master Redis Cluster. */
class RedisClusterFixedWindowStoreTest extends FixedWindowStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.FIXED_WINDOW, RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
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
}
