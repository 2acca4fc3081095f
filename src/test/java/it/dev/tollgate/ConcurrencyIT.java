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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Concurrency limits in two real servers on one Redis: {@code /demo/slow} and {@code /demo/inflight}. */
class ConcurrencyIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .executor(Executors.newFixedThreadPool(40))
            .build();

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.await(LibertyServer.baseUrl(), "/demo/inflight?ms=1");
        RedisReady.await(TwoServersIT.secondServer(), "/demo/inflight?ms=1");
    }

    @Test
    void sixConcurrentSlowRequestsOfOneClientGiveTwo200AndFour429() throws Exception {
        List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            String server = i % 2 == 0 ? LibertyServer.baseUrl() : TwoServersIT.secondServer();
            calls.add(get(server + "/demo/slow", "10.0.16.1"));
        }
        CompletableFuture<HttpResponse<String>> otherClient = get(LibertyServer.baseUrl() + "/demo/slow", "10.0.16.2");
        int ok = 0;
        int refused = 0;
        for (CompletableFuture<HttpResponse<String>> c : calls) {
            HttpResponse<String> r = c.get();
            if (r.statusCode() == 200) {
                ok++;
            } else {
                assertEquals(429, r.statusCode(), r.body());
                assertEquals("1", r.headers().firstValue("Retry-After").orElse(""));
                assertTrue(r.body().contains("Concurrency limit 'demo-slow' is full"), r.body());
                assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
                refused++;
            }
        }
        assertEquals(2, ok, "two at once for one client, on whichever server");
        assertEquals(4, refused);
        assertEquals(200, otherClient.get().statusCode(), "another client has slots of its own");
        assertEquals(
                200,
                get(LibertyServer.baseUrl() + "/demo/slow", "10.0.16.1").get().statusCode(),
                "the slots are free once the calls have ended");
    }

    @Test
    void thirtyTwoInFlightAcrossTwoServersNeverPutMoreThanFourInside() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<long[]>>> clients = new ArrayList<>();
        try {
            for (int t = 0; t < 32; t++) {
                String server = t % 2 == 0 ? LibertyServer.baseUrl() : TwoServersIT.secondServer();
                clients.add(pool.submit(() -> {
                    start.await();
                    List<long[]> admitted = new ArrayList<>();
                    for (int i = 0; i < 6; i++) {
                        HttpResponse<String> r = get(server + "/demo/inflight?ms=150", "10.0.17.1")
                                .get();
                        if (r.statusCode() == 200) {
                            String[] f = r.body().trim().split(" ");
                            admitted.add(new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2])});
                        } else {
                            assertEquals(429, r.statusCode(), r.body());
                        }
                    }
                    return admitted;
                }));
            }
            start.countDown();
            List<long[]> events = new ArrayList<>();
            int admitted = 0;
            for (Future<List<long[]>> c : clients) {
                for (long[] call : c.get()) {
                    admitted++;
                    assertTrue(call[0] <= 4, "at most 4 inside on one server, seen " + call[0]);
                    events.add(new long[] {call[1], 1});
                    events.add(new long[] {call[2], -1});
                }
            }
            events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
            int inside = 0;
            int most = 0;
            for (long[] e : events) {
                inside += (int) e[1];
                most = Math.max(most, inside);
            }
            System.out.println("concurrency through Liberty: " + admitted + " of 192 admitted, at most " + most
                    + " inside across both servers");
            assertTrue(most <= 4, "at most 4 inside across both servers at any instant, seen " + most);
            assertTrue(admitted >= 4, "some were admitted: " + admitted);
        } finally {
            pool.shutdownNow();
        }
    }

    private static CompletableFuture<HttpResponse<String>> get(String url, String client) {
        return CLIENT.sendAsync(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .header("X-Forwarded-For", client)
                        .GET()
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
