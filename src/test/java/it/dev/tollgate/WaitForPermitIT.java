package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * {@code @RateLimited(maxWait = "3s")} in two real servers on one Redis: the demo's partner takes 2
 * calls per second, one at a time; concurrent requests wait for their turn instead of failing.
 */
class WaitForPermitIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(16))
            .build();

    @BeforeEach
    void redisAnswersAndThePartnerBucketIsFull() throws Exception {
        RedisReady.await(LibertyServer.baseUrl(), "/demo/inflight?ms=1");
        RedisReady.await(TwoServersIT.secondServer(), "/demo/inflight?ms=1");
        Thread.sleep(1000); // a full bucket (1 token, 2 per second), whatever ran before
    }

    @Test
    void sixConcurrentRequestsAllSucceedSpacedAsThePartnerAllows() throws Exception {
        long sent = micros();
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            calls.add(get((i % 2 == 0 ? LibertyServer.baseUrl() : TwoServersIT.secondServer()) + "/demo/outbound"));
        }
        List<Long> called = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            HttpResponse<String> r = c.get();
            assertEquals(200, r.statusCode(), r.body());
            called.add(Long.parseLong(r.body().trim().split(" ")[1]));
        }
        long done = micros();
        called.sort(null);
        for (int k = 0; k < called.size(); k++) {
            assertTrue(
                    called.get(k) - sent >= k * 500_000L - 20_000,
                    "call " + k + " reached the partner " + (called.get(k) - sent) / 1000 + " ms in: sooner than 2/s");
        }
        long took = (done - sent) / 1000;
        System.out.println("waiting through Liberty: partner called at "
                + called.stream().map(t -> (t - sent) / 1000 + "ms").toList() + "; all 6 answered in " + took + " ms");
        assertTrue(took < 3500, "all 6 answered within about 2.5 s: " + took + " ms");
    }

    @Test
    void aCallThatWouldWaitPastMaxWaitIsRefusedAtOnce() throws Exception {
        long sent = System.nanoTime();
        List<CompletableFuture<long[]>> calls = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            calls.add(get(LibertyServer.baseUrl() + "/demo/outbound")
                    .thenApply(r -> new long[] {r.statusCode(), (System.nanoTime() - sent) / 1_000_000}));
        }
        int ok = 0;
        for (CompletableFuture<long[]> c : calls) {
            long[] r = c.get();
            if (r[0] == 200) {
                ok++;
            } else {
                assertEquals(429, r[0]);
                assertTrue(r[1] < 1500, "refused after " + r[1] + " ms: at once, not after a pointless sleep");
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
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            calls.add(get(LibertyServer.baseUrl() + "/demo/outbound-async"));
        }
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            assertEquals(200, c.get().statusCode(), c.get().body());
        }
    }

    private static CompletableFuture<HttpResponse<String>> get(String url) {
        return CLIENT.sendAsync(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static long micros() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
    }
}
