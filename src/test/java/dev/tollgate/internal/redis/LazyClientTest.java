package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.io.IOException;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** A Redis that is down when the application starts costs degraded decisions, never the deployment. */
class LazyClientTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @Test
    void clusterAndSentinelsDownAtStartDegradeInsteadOfFailing() throws Exception {
        String nodes = "127.0.0.1:" + closedPort() + ",127.0.0.1:" + closedPort();
        for (String url : List.of("redis-cluster://" + nodes, "redis-sentinel://" + nodes + "/mymaster")) {
            TollgateSettings settings = TestSettings.read(
                    "tollgate.redis.url", url,
                    "tollgate.redis.pool-size", "4",
                    "tollgate.limits.lazy.capacity", "5",
                    "tollgate.limits.lazy.refill-tokens", "0",
                    "tollgate.limits.lazy.persist", "true");
            try (Engine tollgate = Engine.build(settings)) {
                Decision d = tollgate.check("lazy", "k");
                assertTrue(d.degraded() && d.allowed(), url + ": " + d);
            }
        }
    }

    @Test
    void failedBuildIsTriedAgainOnTheNextCall() {
        AtomicInteger builds = new AtomicInteger();
        RedisLink link = RedisLink.lazy(
                () -> {
                    if (builds.incrementAndGet() == 1) {
                        throw new IllegalStateException("no seed answered");
                    }
                    return RedisLink.Built.single(RedisClient.create("127.0.0.1", redis.port()));
                },
                "test");
        try (link) {
            RedisException failed = assertThrows(RedisException.class, link::ping);
            assertTrue(failed.connectionFailed(), "a failed build is a connection failure");
            assertInstanceOf(JedisConnectionException.class, failed.getCause());
            assertTrue(link.ping());
            assertTrue(link.ping());
            assertEquals(2, builds.get(), "built once it worked, and kept");
        }
    }

    private static int closedPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
