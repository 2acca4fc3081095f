package dev.tollgate.ratelimit;

import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The token-bucket contract (exactness at 1, 2, 8 and 32 in flight included) on a 3-master Redis Cluster. */
class RedisClusterTokenBucketStoreTest extends TokenBucketStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster(3);

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
        return CLOCK;
    }

    /** Every key of these tests may live on any master; their clocks are this machine's one clock. */
    private static final TestClock CLOCK = new TestClock() {
        @Override
        public long nowMicros() {
            try (Jedis j = cluster.admin(0)) {
                List<String> t = j.time();
                return Long.parseLong(t.get(0)) * 1_000_000 + Long.parseLong(t.get(1));
            }
        }

        @Override
        public void elapse(Duration d) throws InterruptedException {
            long until = nowMicros() + d.toNanos() / 1000;
            for (long now = nowMicros(); now < until; now = nowMicros()) {
                Thread.sleep(Math.max(1, (until - now) / 1000));
            }
        }
    };
}
