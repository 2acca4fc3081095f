package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestSettings;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Idempotent charges on one Redis. */
class RedisIdempotencyTest extends IdempotencyContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

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
    protected Boolean recordExists(String key) {
        try (Jedis j = redis.admin()) {
            return j.exists(key);
        }
    }

    @Override
    protected Long storedTokens(String storeKey) {
        try (Jedis j = redis.admin()) {
            return StoredBucket.read(j, storeKey).wholeTokens();
        }
    }
}
