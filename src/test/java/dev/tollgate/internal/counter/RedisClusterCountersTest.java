package dev.tollgate.internal.counter;

import dev.tollgate.Counters;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The counters' contract (exact under 32 threads, the expiry set once) on a 3-master Redis Cluster. */
class RedisClusterCountersTest extends CountersContract {

    @RegisterExtension
    static final RedisCluster cluster = RedisCluster.shared();

    private static RedisLink link;
    private static RedisCounters counters;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), Timeouts.GENEROUS, 32));
        counters = RedisCounters.using(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected Counters counters() {
        return counters;
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        cluster.elapse(d);
    }
}
