package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Waiting on a 3-master cluster: the bucket and its reservations live on the master owning its key. */
class RedisClusterReservationTest extends ReservationContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisLink link;
    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 40));
        store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
    }

    @AfterAll
    static void close() {
        link.close();
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
