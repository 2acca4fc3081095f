package dev.tollgate.ratelimit;

import dev.tollgate.engine.Tollgate;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** All or nothing on a 3-master Redis Cluster: a call's limits live in other slots, on other masters. */
class RedisClusterAllOrNothingTest extends AllOrNothingContract {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster(3);

    private static Tollgate tollgate;

    @BeforeAll
    static void build() {
        List<String> props = new ArrayList<>(List.of(LIMITS));
        props.addAll(List.of(
                "tollgate.redis.url", cluster.url(), "tollgate.redis.timeout", "5s", "tollgate.redis.pool-size", "40"));
        tollgate = Tollgate.build(TestSettings.read(props.toArray(String[]::new)));
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    @Override
    protected Tollgate tollgate() {
        return tollgate;
    }

    @Override
    protected TestClock clock() {
        return CLOCK;
    }

    @Override
    protected String storedTokens(String storeKey) {
        try (Jedis j = cluster.admin(cluster.ownerOf(storeKey))) {
            return j.hget(storeKey, "t");
        }
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
