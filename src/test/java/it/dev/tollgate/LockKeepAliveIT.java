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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * Kept-alive locks in two real servers on one Redis: the demo's 3 s job under a 1 s lock runs on one
 * server at a time, a waiter on the other server gets the lock as the job ends, and a lock taken from
 * under the job fires {@code LockLost}.
 */
class LockKeepAliveIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    private static final String LOCK_KEY = "tollgate:lock:{demo-long-report}";
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.await(LibertyServer.baseUrl(), "/demo/inflight?ms=1");
        RedisReady.await(TwoServersIT.secondServer(), "/demo/inflight?ms=1");
    }

    @AfterEach
    void freeTheLock() throws Exception {
        // A job still running holds it until it ends; wait for that, then make sure nothing is left.
        Thread.sleep(100);
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 100 && j.exists(LOCK_KEY) && !"intruder".equals(j.get(LOCK_KEY)); i++) {
                Thread.sleep(50);
            }
            j.del(LOCK_KEY);
        }
    }

    @Test
    void jobOfThreeTimesItsTtlRunsOnceAcrossTwoServers() throws Exception {
        int before = runs(LibertyServer.baseUrl()) + runs(TwoServersIT.secondServer());
        List<CompletableFuture<HttpResponse<String>>> starts = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            starts.add(post((i % 2 == 0 ? LibertyServer.baseUrl() : TwoServersIT.secondServer()) + "/demo/long-job"));
        }
        for (CompletableFuture<HttpResponse<String>> s : starts) {
            assertEquals(200, s.get().statusCode());
        }
        int after = runs(LibertyServer.baseUrl()) + runs(TwoServersIT.secondServer());
        assertEquals(before + 1, after, "one of four starts on two servers ran the 3 s job under its 1 s lock");
        assertEquals(0, lost(LibertyServer.baseUrl()) + lost(TwoServersIT.secondServer()), "no lock was lost");
    }

    @Test
    void waiterOnTheOtherServerTakesTheLockWhenTheJobEnds() throws Exception {
        CompletableFuture<HttpResponse<String>> job = post(LibertyServer.baseUrl() + "/demo/long-job");
        awaitLockTaken();
        HttpResponse<String> waited = post(TwoServersIT.secondServer() + "/demo/lock-wait?maxWaitMs=10000")
                .get();
        assertEquals(200, job.get().statusCode());
        String[] answer = waited.body().trim().split(" ");
        assertEquals("acquired", answer[0], waited.body());
        long millis = Long.parseLong(answer[1]);
        assertTrue(millis > 1500 && millis < 4000, "waited " + millis + " ms for a 3 s job under a 1 s lock");
        HttpResponse<String> timedOut = post(TwoServersIT.secondServer() + "/demo/lock-wait?maxWaitMs=0")
                .get();
        assertEquals("acquired", timedOut.body().trim().split(" ")[0], "the waiter let it go");
    }

    @Test
    void waiterThatRunsOutOfTimeIsToldHeldElsewhere() throws Exception {
        CompletableFuture<HttpResponse<String>> job = post(LibertyServer.baseUrl() + "/demo/long-job");
        awaitLockTaken();
        String[] answer = post(TwoServersIT.secondServer() + "/demo/lock-wait?maxWaitMs=500")
                .get()
                .body()
                .trim()
                .split(" ");
        assertEquals("held-elsewhere", answer[0]);
        long millis = Long.parseLong(answer[1]);
        assertTrue(millis >= 500 && millis < 1000, "gave up after " + millis + " ms of a 500 ms maxWait");
        assertEquals(200, job.get().statusCode());
    }

    @Test
    void lockTakenFromUnderTheJobFiresLockLost() throws Exception {
        String server = LibertyServer.baseUrl();
        int lostBefore = lost(server);
        long metricBefore = lostMetric(server);
        CompletableFuture<HttpResponse<String>> job = post(server + "/demo/long-job");
        awaitLockTaken();
        try (Jedis j = redis.admin()) {
            j.psetex(LOCK_KEY, 10_000, "intruder"); // as if the job's server had been frozen past its ttl
        }
        assertEquals(200, job.get().statusCode());
        assertEquals(lostBefore + 1, lost(server), "the job's bean observed LockLost");
        assertEquals(metricBefore + 1, lostMetric(server));
        try (Jedis j = redis.admin()) {
            assertEquals("intruder", j.get(LOCK_KEY), "the job did not release the intruder's lock");
            assertTrue(j.pttl(LOCK_KEY) > 5_000, "nor extend it");
        }
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("lock 'demo-long-report'") && l.contains("was lost while held")),
                "one WARNING says so");
    }

    private static void awaitLockTaken() throws InterruptedException {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 200 && !j.exists(LOCK_KEY); i++) {
                Thread.sleep(10);
            }
            assertTrue(j.exists(LOCK_KEY), "the job took its lock");
        }
        Thread.sleep(200);
    }

    private static CompletableFuture<HttpResponse<String>> post(String url) {
        return CLIENT.sendAsync(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static int runs(String server) throws Exception {
        return status(server, "runs");
    }

    private static int lost(String server) throws Exception {
        return status(server, "lost");
    }

    private static int status(String server, String field) throws Exception {
        String body = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(server + "/demo/long-job"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body()
                .trim();
        for (String part : body.split(" ")) {
            if (part.startsWith(field + "=")) {
                return Integer.parseInt(part.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in " + body);
    }

    private static long lostMetric(String server) throws Exception {
        String body = CLIENT.send(
                        HttpRequest.newBuilder(URI.create(server + "/metrics?scope=application"))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        for (String line : body.split("\n")) {
            if (line.startsWith("tollgate_lock_lost_total{")
                    && line.contains("lock=\"demo-long-report\"")
                    && line.contains("reason=\"taken\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
