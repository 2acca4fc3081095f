package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * {@code @RateLimited(maxWait = "3s")} in two real servers on one Redis: the demo's partner takes 2
 * calls per second, one at a time; concurrent requests wait for their turn instead of failing.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
public class WaitForPermitIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    private static final String PARTNER_KEY = StoreKeys.DEFAULT.of("demo-partner", "*");

    @BeforeEach
    void redisAnswersAndThePartnerBucketIsFull() throws Exception {
        RedisReady.awaitBoth();
        try (Jedis admin = redis.admin()) {
            admin.del(PARTNER_KEY); // a full bucket (1 token, 2 per second), whatever ran before
        }
    }

    @Test
    void sixConcurrentRequestsAllSucceedSpacedAsThePartnerAllows() throws Exception {
        long sent = micros();
        List<Timed> calls = fire(6, i -> SERVERS.get(i % 2), DemoClient::outbound);
        List<Long> called = new ArrayList<>();
        for (Timed t : calls) {
            assertEquals(200, t.reply().status(), t.reply().body());
            called.add(Long.parseLong(t.reply().body().trim().split(" ")[1]));
        }
        long took = calls.stream().mapToLong(Timed::millis).max().orElseThrow();
        called.sort(null);
        for (int k = 0; k < called.size(); k++) {
            assertTrue(
                    called.get(k) - sent >= k * 500_000L - 20_000,
                    "call " + k + " reached the partner " + (called.get(k) - sent) / 1000 + " ms in: sooner than 2/s");
        }
        System.out.println("waiting through Liberty: partner called at "
                + called.stream().map(t -> (t - sent) / 1000 + "ms").toList() + "; all 6 answered in " + took + " ms");
    }

    /**
     * The partner's bucket already owes 3.5 s of turns (reserved here through the same script, as
     * other servers' waiting calls would): a request whose turn would come after its 3 s maxWait is
     * refused at once, reserving nothing. (A burst of requests cannot show it reliably on a 2-core
     * machine: the server's request threads, asleep in their waits, let the next requests in only as
     * fast as the partner's turns come, which is why resource methods do not wait by default.)
     */
    @Test
    void aCallThatWouldWaitPastMaxWaitIsRefusedAtOnce() throws Exception {
        LimitPolicy partner = new LimitPolicy("demo-partner", 1, 2, Duration.ofSeconds(1), 1);
        String key = PARTNER_KEY;
        try (RedisLink link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofSeconds(2), 2))) {
            RedisRateLimitStore store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
            for (int i = 0; i < 8; i++) {
                assertTrue(store.reserve(partner, key, Duration.ofSeconds(10))
                        .decision()
                        .allowed());
            }
            Timed refused = fire(1, i -> SERVERS.get(0), DemoClient::outbound).get(0);
            assertEquals(429, refused.reply().status(), refused.reply().body());
            long retryAfter =
                    Long.parseLong(refused.reply().header("Retry-After").orElseThrow());
            assertTrue(retryAfter >= 3, "retry after " + retryAfter + " s, when its turn would come");
            assertTrue(refused.took() < 1500, "refused after " + refused.took() + " ms: at once, not after a sleep");
            Duration next = store.reserve(partner, key, Duration.ofSeconds(10)).delay();
            assertTrue(
                    next.compareTo(Duration.ofMillis(4000)) <= 0 && next.compareTo(Duration.ofMillis(2500)) > 0,
                    "the refused request reserved nothing: the next turn is still about 4 s away, " + next);
        }
    }

    @Test
    void anAsynchronousEjbWaitsOnItsOwnThread() throws Exception {
        for (Timed t : fire(3, i -> SERVERS.get(0), DemoClient::outboundAsync)) {
            assertEquals(200, t.reply().status(), t.reply().body());
        }
    }

    /**
     * One reply: how long after the burst began it came ({@code millis}), how long after the burst
     * began it was sent, and how long it took.
     */
    record Timed(Reply reply, long millis, long sent, long took) {}

    /** {@code n} calls at once, each on a client of its own. */
    private static List<Timed> fire(
            int n,
            java.util.function.IntFunction<String> server,
            Function<DemoClient, jakarta.ws.rs.core.Response> call)
            throws Exception {
        List<DemoClient> clients = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            clients.add(Load.client(server.apply(i)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            long start = System.nanoTime();
            List<Future<Timed>> futures = new ArrayList<>();
            for (DemoClient c : clients) {
                futures.add(pool.submit(() -> {
                    long sent = System.nanoTime();
                    Reply r = Reply.of(call.apply(c));
                    long now = System.nanoTime();
                    return new Timed(
                            r, (now - start) / 1_000_000, (sent - start) / 1_000_000, (now - sent) / 1_000_000);
                }));
            }
            List<Timed> out = new ArrayList<>();
            for (Future<Timed> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private static long micros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
