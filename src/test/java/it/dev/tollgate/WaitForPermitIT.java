package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
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
public class WaitForPermitIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    @BeforeEach
    void redisAnswersAndThePartnerBucketIsFull() throws Exception {
        RedisReady.awaitBoth();
        Thread.sleep(1000); // a full bucket (1 token, 2 per second), whatever ran before
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
        assertTrue(took < 3500, "all 6 answered within about 2.5 s: " + took + " ms");
    }

    @Test
    void aCallThatWouldWaitPastMaxWaitIsRefusedAtOnce() throws Exception {
        List<Timed> calls = fire(10, i -> SERVERS.get(0), DemoClient::outbound);
        int ok = 0;
        for (Timed t : calls) {
            if (t.reply().status() == 200) {
                ok++;
            } else {
                assertEquals(429, t.reply().status(), t.reply().body());
                assertTrue(t.reply().header("Retry-After").isPresent());
                assertTrue(
                        t.millis() < 1500, "refused after " + t.millis() + " ms: at once, not after a pointless sleep");
            }
        }
        // Tokens at 0, 0.5, ..., 3.0 s: 7 within the 3 s maxWait (6 if the burst spans a refill step).
        assertTrue(ok == 6 || ok == 7, ok + " of 10 waited for their turn");
        try (Jedis j = redis.admin()) {
            assertEquals(1, j.keys("*demo-partner*").size(), "one bucket for everyone");
        }
    }

    @Test
    void anAsynchronousEjbWaitsOnItsOwnThread() throws Exception {
        for (Timed t : fire(3, i -> SERVERS.get(0), DemoClient::outboundAsync)) {
            assertEquals(200, t.reply().status(), t.reply().body());
        }
    }

    /** One reply and how long after the burst began it came. */
    record Timed(Reply reply, long millis) {}

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
                    Reply r = Reply.of(call.apply(c));
                    return new Timed(r, (System.nanoTime() - start) / 1_000_000);
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
