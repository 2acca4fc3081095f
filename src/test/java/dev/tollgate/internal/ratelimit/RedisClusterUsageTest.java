package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Usage you can bill on a 3-master Redis Cluster: each ledger lies in its bucket's slot, on its master,
 * written in the decision's one script call; the export scans every master.
 */
class RedisClusterUsageTest extends UsageContract {

    @RegisterExtension
    static final RedisCluster redis = RedisCluster.shared();

    private static Engine tollgate;

    @BeforeAll
    static void build() {
        List<String> props = new ArrayList<>(List.of(LIMITS));
        props.addAll(List.of("tollgate.redis.url", redis.url(), "tollgate.redis.timeout", "5s"));
        tollgate = Engine.build(TestSettings.read(props.toArray(String[]::new)));
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    @Override
    protected Engine tollgate() {
        return tollgate;
    }

    @Override
    protected Map<String, String> ledger(String key) {
        try (Jedis j = redis.admin(redis.ownerOf(key))) {
            return j.hgetAll(key);
        }
    }

    @Override
    protected Long ttlSeconds(String key) {
        try (Jedis j = redis.admin(redis.ownerOf(key))) {
            return j.ttl(key);
        }
    }
}
