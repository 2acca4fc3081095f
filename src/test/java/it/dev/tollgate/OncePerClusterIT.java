package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code @OncePerCluster} in a real server: of three concurrent starts of the job, one runs. */
class OncePerClusterIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    @Test
    void threeConcurrentStartsRunTheJobOnce() throws Exception {
        int before = runs();
        HttpClient client = HttpClient.newHttpClient();
        List<CompletableFuture<HttpResponse<String>>> starts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            starts.add(client.sendAsync(
                    HttpRequest.newBuilder(URI.create(LibertyServer.baseUrl() + "/demo/job"))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> s : starts) {
            assertEquals(200, s.get().statusCode());
        }
        assertEquals(before + 1, runs(), "one ran, two found the lock held elsewhere");
        String metrics = LibertyServer.get("/metrics?scope=application").body();
        assertTrue(metrics.contains("tollgate_lock_acquired_total{lock=\"demo-report\""), metrics);
        assertTrue(metrics.contains("tollgate_lock_held_elsewhere_total{lock=\"demo-report\""), metrics);
    }

    private static int runs() throws Exception {
        return Integer.parseInt(LibertyServer.get("/demo/job").body().trim());
    }
}
