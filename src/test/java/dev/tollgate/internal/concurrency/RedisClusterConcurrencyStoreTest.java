package dev.tollgate.internal.concurrency;

import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lease contract (32 in flight included) on a 3-master cluster: each store key lives on one master. */
class RedisClusterConcurrencyStoreTest extends ConcurrencyStoreContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

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
        return cluster;
    }
}
