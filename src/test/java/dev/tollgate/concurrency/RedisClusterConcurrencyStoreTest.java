package dev.tollgate.concurrency;

import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
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

/** The lease contract (32 in flight included) on a 3-master cluster: each store key lives on one master. */
class RedisClusterConcurrencyStoreTest extends ConcurrencyStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster(3);

    private static RedisLink link;
    private static RedisConcurrencyStore store;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 40));
        store = RedisConcurrencyStore.using(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected ConcurrencyStore store() {
        return store;
    }

    @Override
    protected TestClock clock() {
        return CLOCK;
    }

    /** Every master runs on this machine's one clock. */
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
