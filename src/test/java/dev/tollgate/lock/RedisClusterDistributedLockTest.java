package dev.tollgate.lock;

import dev.tollgate.LockLost;
import dev.tollgate.redis.GuardedRedis;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The lock contract (keep-alive and lost locks included) on a 3-master Redis Cluster. */
class RedisClusterDistributedLockTest extends DistributedLockContract {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster(3);

    private static final List<LockLost> LOST = new CopyOnWriteArrayList<>();
    private static RedisLink link;
    private static RedisDistributedLock lock;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
        lock = RedisDistributedLock.using(GuardedRedis.unguarded(link), LOST::add);
    }

    @AfterAll
    static void close() {
        lock.close();
        link.close();
    }

    @Override
    protected List<LockLost> lost() {
        return LOST;
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    /** Every master runs on this machine's one clock. */
    @Override
    protected long nowMicros() {
        try (Jedis j = cluster.admin(0)) {
            List<String> t = j.time();
            return Long.parseLong(t.get(0)) * 1_000_000 + Long.parseLong(t.get(1));
        }
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        long until = nowMicros() + d.toNanos() / 1000;
        for (long now = nowMicros(); now < until; now = nowMicros()) {
            Thread.sleep(Math.max(1, (until - now) / 1000));
        }
    }
}
