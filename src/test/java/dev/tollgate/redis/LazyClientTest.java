package dev.tollgate.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.engine.RedisGuards;
import dev.tollgate.guard.ExecutorCaller;
import dev.tollgate.guard.GuardSettings;
import dev.tollgate.guard.RedisGuard;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.testing.RedisServer;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisConnectionException;

/** A Redis that is down when the application starts costs degraded decisions, never the deployment. */
class LazyClientTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    static final Duration BUDGET = Duration.ofMillis(250);

    @Test
    void clusterAndSentinelsDownAtStartDegradeInsteadOfFailing() throws Exception {
        String nodes = "127.0.0.1:" + closedPort() + ",127.0.0.1:" + closedPort();
        for (String url : List.of("redis-cluster://" + nodes, "redis-sentinel://" + nodes + "/mymaster")) {
            try (RedisLink link = RedisClients.create(RedisSettings.of(url, BUDGET, 4));
                    RedisGuard guard = RedisGuards.forLink(
                            link,
                            ExecutorCaller.standalone(GuardSettings.defaults(BUDGET, 4)),
                            Duration.ofMillis(100))) {
                RateLimiter limiter = new RateLimiter(
                        RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link),
                        guard,
                        (l, d, n) -> {},
                        System::nanoTime);
                Decision d =
                        limiter.check(new LimitSpec(LimitPolicy.quota("lazy", 5), new KeySpec.Global(), true), "k");
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
            assertThrows(JedisConnectionException.class, link::ping, "a failed build is a connection failure");
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
