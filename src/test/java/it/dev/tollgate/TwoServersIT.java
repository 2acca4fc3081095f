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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two Liberty servers, the same WAR, the same Redis, no balancer in front: requests alternate between
 * them, and the limit holds across both as one.
 */
class TwoServersIT {

    static final RedisServer redis = new RedisServer();
    static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @BeforeAll
    static void startRedis() throws Exception {
        redis.start(LibertyServer.redisPort());
    }

    @AfterAll
    static void stopRedis() {
        redis.stop();
    }

    @Test
    void oneLimitAcrossTwoServers() throws Exception {
        List<String> servers = List.of(LibertyServer.baseUrl(), secondServer());
        ExecutorService pool = Executors.newFixedThreadPool(32);
        List<Future<HttpResponse<String>>> futures = new ArrayList<>();
        try {
            for (int i = 0; i < 1000; i++) {
                URI uri = URI.create(servers.get(i % 2) + "/demo/hello");
                futures.add(pool.submit(() -> get(uri, "10.0.7.1")));
            }
            int[] admitted = new int[2];
            int[] limited = new int[2];
            for (int i = 0; i < futures.size(); i++) {
                int status = futures.get(i).get().statusCode();
                admitted[i % 2] += status == 200 ? 1 : 0;
                limited[i % 2] += status == 429 ? 1 : 0;
            }
            assertEquals(
                    100, admitted[0] + admitted[1], "admitted by each server: " + admitted[0] + ", " + admitted[1]);
            assertEquals(900, limited[0] + limited[1]);
            assertTrue(
                    admitted[0] > 0 && admitted[1] > 0,
                    "both servers admitted some: " + admitted[0] + ", " + admitted[1]);
            System.out.println("two servers admitted " + admitted[0] + " + " + admitted[1] + " = 100");
        } finally {
            pool.shutdownNow();
        }
    }

    static String secondServer() {
        String port = System.getProperty("it.http.port2");
        if (port == null || port.isBlank()) {
            throw new IllegalStateException("it.http.port2 is not set: run the integration tests with mvn verify");
        }
        return "http://localhost:" + port;
    }

    static HttpResponse<String> get(URI uri, String client) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(10))
                .header("X-Forwarded-For", client)
                .GET()
                .build();
        return CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
