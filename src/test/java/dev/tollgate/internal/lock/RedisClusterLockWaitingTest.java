package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting on a 3-master cluster: the lock names hash to every master, the notices reach every node. */
class RedisClusterLockWaitingTest extends LockWaitingContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisLink link;
    private static RedisLink otherLink;
    private static RedisDistributedLock lock;
    private static RedisDistributedLock other;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 16));
        otherLink = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 16));
        lock = RedisDistributedLock.using(link);
        other = RedisDistributedLock.using(otherLink);
    }

    @AfterAll
    static void close() {
        lock.close();
        other.close();
        link.close();
        otherLink.close();
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected DistributedLock otherServer() {
        return other;
    }

    @Override
    protected long storeMicros() {
        return cluster.nowMicros();
    }
}
