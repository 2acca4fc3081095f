package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The token-bucket contract (exactness at 1, 2, 8 and 32 in flight included) on a 3-master Redis Cluster. */
class RedisClusterTokenBucketStoreTest extends TokenBucketStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.TOKEN_BUCKET, RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
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
