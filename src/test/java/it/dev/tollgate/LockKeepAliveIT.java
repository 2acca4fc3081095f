package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * Kept-alive locks in two real servers on one Redis: the demo's 3 s job under a 1 s lock runs on one
 * server at a time, a waiter on the other server gets the lock as the job ends, and a lock taken from
 * under the job fires {@code LockLost}.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
public class LockKeepAliveIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final String LOCK_KEY = "tollgate:lock:{demo-long-report}";
    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    @AfterEach
    void freeTheLock() throws Exception {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 100 && j.exists(LOCK_KEY) && !"intruder".equals(j.get(LOCK_KEY)); i++) {
                Thread.sleep(50); // a job still running holds it until it ends
            }
            j.del(LOCK_KEY);
        }
    }

    @Test
    void jobOfThreeTimesItsTtlRunsOnceAcrossTwoServers() throws Exception {
        int before = status(0, "runs") + status(1, "runs");
        List<Reply> starts = Load.fire(4, 4, i -> SERVERS.get(i % 2), DemoClient::startLongJob);
        for (Reply s : starts) {
            assertEquals(200, s.status(), s.body());
        }
        int after = status(0, "runs") + status(1, "runs");
        assertEquals(before + 1, after, "one of four starts on two servers ran the 3 s job under its 1 s lock");
        assertEquals(0, status(0, "lost") + status(1, "lost"), "no lock was lost");
    }

    @Test
    void waiterOnTheOtherServerTakesTheLockWhenTheJobEnds() throws Exception {
        CompletableFuture<Reply> job = startJob(0);
        awaitLockTaken();
        String[] answer = Load.client(SERVERS.get(1)).lockWait(10_000).trim().split(" ");
        assertEquals(200, job.get().status());
        assertEquals("acquired", answer[0], String.join(" ", answer));
        long millis = Long.parseLong(answer[1]);
        assertTrue(millis > 1500 && millis < 4000, "waited " + millis + " ms for a 3 s job under a 1 s lock");
        assertEquals("acquired", Load.client(SERVERS.get(1)).lockWait(0).trim().split(" ")[0], "and let it go");
    }

    @Test
    void waiterThatRunsOutOfTimeIsToldHeldElsewhere() throws Exception {
        CompletableFuture<Reply> job = startJob(0);
        awaitLockTaken();
        String[] answer = Load.client(SERVERS.get(1)).lockWait(500).trim().split(" ");
        assertEquals("held-elsewhere", answer[0], String.join(" ", answer));
        long millis = Long.parseLong(answer[1]);
        assertTrue(millis >= 500 && millis < 1000, "gave up after " + millis + " ms of a 500 ms maxWait");
        assertEquals(200, job.get().status());
    }

    @Test
    void lockTakenFromUnderTheJobFiresLockLost() throws Exception {
        int lostBefore = status(0, "lost");
        long metricBefore = lostMetric();
        CompletableFuture<Reply> job = startJob(0);
        awaitLockTaken();
        try (Jedis j = redis.admin()) {
            j.set(LOCK_KEY, "intruder", new redis.clients.jedis.params.SetParams().px(10_000));
        }
        assertEquals(200, job.get().status());
        assertEquals(lostBefore + 1, status(0, "lost"), "the job's bean observed LockLost");
        assertEquals(metricBefore + 1, lostMetric());
        try (Jedis j = redis.admin()) {
            assertEquals("intruder", j.get(LOCK_KEY), "the job did not release the intruder's lock");
            assertTrue(j.pttl(LOCK_KEY) > 5_000, "nor extend it");
        }
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("lock 'demo-long-report'") && l.contains("was lost while held")),
                "one WARNING says so");
    }

    private static CompletableFuture<Reply> startJob(int server) {
        return CompletableFuture.supplyAsync(
                () -> Reply.of(Load.client(SERVERS.get(server)).startLongJob()));
    }

    private static void awaitLockTaken() throws InterruptedException {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 300 && !j.exists(LOCK_KEY); i++) {
                Thread.sleep(10);
            }
            assertTrue(j.exists(LOCK_KEY), "the job took its lock");
        }
        Thread.sleep(200);
    }

    private static int status(int server, String field) {
        String body = Load.client(SERVERS.get(server)).longJob().trim();
        for (String part : body.split(" ")) {
            if (part.startsWith(field + "=")) {
                return Integer.parseInt(part.substring(field.length() + 1));
            }
        }
        throw new AssertionError("no " + field + " in " + body);
    }

    private static long lostMetric() {
        for (String line : LibertyServer.metrics().split("\n")) {
            if (line.startsWith("tollgate_lock_lost_total{")
                    && line.contains("lock=\"demo-long-report\"")
                    && line.contains("reason=\"taken\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }
}
