package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.LockLost;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lock contract (keep-alive and lost locks included) on a 3-master Redis Cluster. */
class RedisClusterDistributedLockTest extends DistributedLockContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

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

    @Override
    protected long nowMicros() {
        return cluster.nowMicros();
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        cluster.elapse(d);
    }
}
