package dev.tollgate.internal.lock;

import dev.tollgate.DistributedLock;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting on one Redis, woken by release notices; the other server has its own client and lock. */
class RedisLockWaitingTest extends LockWaitingContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisLink otherLink;
    private static RedisDistributedLock lock;
    private static RedisDistributedLock other;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 16));
        otherLink = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 16));
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
        return redis.timeMicros();
    }
}
