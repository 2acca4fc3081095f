package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * Kept-alive locks in two real servers on one Redis: the demo's long job under a 1 s lock, held by the
 * test until it releases it (a handshake, no race with the job's length), runs on one server at a time
 * beyond its ttl, a waiter on the other server gets the lock as the job ends, and a lock taken from under
 * the job fires {@code LockLost}.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
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
        release(0); // a held job a failed test left running
        release(1);
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 100 && j.exists(LOCK_KEY) && !"intruder".equals(j.get(LOCK_KEY)); i++) {
                Thread.sleep(50); // a job still running holds it until it ends
            }
            j.del(LOCK_KEY);
        }
    }

    @Test
    void jobKeptAliveBeyondItsTtlRunsOnceAcrossTwoServers() throws Exception {
        int before = status(0, "runs") + status(1, "runs");
        CompletableFuture<Reply> job = startHeldJob(0);
        long taken = awaitLockTaken();
        // Three more starts while the held job runs, on both servers: each finds the lock held and skips.
        for (int i = 0; i < 3; i++) {
            Reply s = Reply.of(Load.client(SERVERS.get((i + 1) % 2)).startLongJob());
            assertEquals(200, s.status(), s.body());
        }
        awaitOutlivedItsTtl(taken);
        assertFalse(job.isDone(), "the held job still runs");
        release(0);
        assertEquals(200, job.get().status());
        int after = status(0, "runs") + status(1, "runs");
        assertEquals(before + 1, after, "one of four starts on two servers ran the job under its 1 s lock");
        assertEquals(0, status(0, "lost") + status(1, "lost"), "no lock was lost");
    }

    @Test
    void waiterOnTheOtherServerTakesTheLockWhenTheJobEnds() throws Exception {
        CompletableFuture<Reply> job = startHeldJob(0);
        long taken = awaitLockTaken();
        CompletableFuture<String> waiter =
                CompletableFuture.supplyAsync(() -> Load.client(SERVERS.get(1)).lockWait(60_000));
        awaitOutlivedItsTtl(taken);
        assertFalse(waiter.isDone(), "the waiter waits while the kept-alive job runs: " + doneValue(waiter));
        release(0);
        assertEquals(200, job.get().status());
        String[] answer = waiter.get().trim().split(" ");
        assertEquals("acquired", answer[0], String.join(" ", answer));
        assertEquals("acquired", Load.client(SERVERS.get(1)).lockWait(0).trim().split(" ")[0], "and let it go");
    }

    @Test
    void waiterThatRunsOutOfTimeIsToldHeldElsewhere() throws Exception {
        CompletableFuture<Reply> job = startHeldJob(0);
        awaitLockTaken();
        try {
            String[] answer = Load.client(SERVERS.get(1)).lockWait(500).trim().split(" ");
            assertEquals("held-elsewhere", answer[0], String.join(" ", answer));
            long millis = Long.parseLong(answer[1]);
            assertTrue(millis >= 500, "gave up after " + millis + " ms, not before its 500 ms maxWait");
            assertFalse(job.isDone(), "the job held the lock all along");
        } finally {
            release(0);
        }
        assertEquals(200, job.get().status());
    }

    @Test
    void lockTakenFromUnderTheJobFiresLockLost() throws Exception {
        int lostBefore = status(0, "lost");
        long metricBefore = lostMetric();
        CompletableFuture<Reply> job = startHeldJob(0);
        awaitLockTaken();
        try (Jedis j = redis.admin()) {
            j.set(LOCK_KEY, "intruder", new redis.clients.jedis.params.SetParams().px(60_000));
        }
        try {
            // The keep-alive's next renewal finds the lock taken while the held job still runs.
            for (int i = 0; i < 200 && status(0, "lost") == lostBefore; i++) {
                Thread.sleep(50);
            }
            assertFalse(job.isDone(), "heard while the job runs");
        } finally {
            release(0);
        }
        assertEquals(200, job.get().status());
        assertEquals(lostBefore + 1, status(0, "lost"), "the job's bean observed LockLost");
        assertEquals(metricBefore + 1, lostMetric());
        try (Jedis j = redis.admin()) {
            assertEquals("intruder", j.get(LOCK_KEY), "the job did not release the intruder's lock");
            assertTrue(j.pttl(LOCK_KEY) > 50_000, "nor extend it");
        }
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("lock 'demo-long-report'") && l.contains("was lost while held")),
                "one WARNING says so");
    }

    private static CompletableFuture<Reply> startHeldJob(int server) {
        return CompletableFuture.supplyAsync(
                () -> Reply.of(Load.client(SERVERS.get(server)).startHeldLongJob(true)));
    }

    private static void release(int server) {
        Load.client(SERVERS.get(server)).releaseLongJob();
    }

    /** Waits until the job's lock is in Redis; answers Redis's time then, in microseconds. */
    private static long awaitLockTaken() throws InterruptedException {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 1000 && !j.exists(LOCK_KEY); i++) {
                Thread.sleep(10);
            }
            assertTrue(j.exists(LOCK_KEY), "the job took its lock");
            return redis.timeMicros();
        }
    }

    /**
     * Waits (Redis's clock) until the lock has lived three times its 1 s ttl, still held by the job: only
     * the keep-alive can have kept it. The job runs until released, so no load turns this into a race.
     */
    private static void awaitOutlivedItsTtl(long takenMicros) throws InterruptedException {
        try (Jedis j = redis.admin()) {
            String holder = j.get(LOCK_KEY);
            while (redis.timeMicros() - takenMicros < 3_000_000) {
                Thread.sleep(100);
            }
            assertEquals(holder, j.get(LOCK_KEY), "the same holder, three ttls later: kept alive");
        }
    }

    private static String doneValue(CompletableFuture<String> f) {
        return f.isDone() ? f.join() : "";
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
