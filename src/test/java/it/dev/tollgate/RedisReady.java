package it.dev.tollgate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Waits until a server talks to the test's Redis normally: reachable, breaker closed, and a check
 * through the guard done. Each IT class starts its own Redis on the same port, so the servers' pooled
 * connections to the last one are stale, and a burst against a cold client on a loaded machine opens
 * the breaker: the decisions are then degraded, which is right, but not what these tests measure.
 */
final class RedisReady {

    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    private RedisReady() {}

    /** Warms {@code server} with {@code warmUpPath} until its health says Redis answers and the breaker is closed. */
    static void await(String server, String warmUpPath) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            send(server + warmUpPath);
            String health = send(server + "/health/ready");
            if (health.contains("\"redisReachable\":true") && health.contains("\"breakerOpen\":false")) {
                send(server + warmUpPath);
                if (send(server + "/health/ready").contains("\"breakerOpen\":false")) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                server + " did not get a healthy link to Redis within 60 s: " + send(server + "/health/ready"));
    }

    private static String send(String url) throws Exception {
        return CLIENT.send(
                        HttpRequest.newBuilder(URI.create(url))
                                .timeout(Duration.ofSeconds(10))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
    }
}
