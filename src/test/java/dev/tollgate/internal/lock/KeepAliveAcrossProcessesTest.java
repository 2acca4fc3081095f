package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Keep-alive between separate JVMs on one real Redis: long jobs stay alone, a frozen holder is told. */
class KeepAliveAcrossProcessesTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisDistributedLock lock;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofMillis(500), 8));
        lock = RedisDistributedLock.using(link);
    }

    @AfterAll
    static void close() {
        lock.close();
        link.close();
    }

    @Test
    void jobOfThreeTimesItsTtlRunsAloneAcrossThreeServers() throws Exception {
        long ttl = 500;
        long job = 1500;
        List<ChildJvm> servers = new ArrayList<>();
        try {
            for (String id : List.of("cron-01", "cron-02", "cron-03")) {
                servers.add(ChildJvm.start(
                        LockChild.class, "long-job", redis.url(), id, Long.toString(ttl), Long.toString(job), "6000"));
            }
            try (Jedis j = redis.admin()) {
                for (int i = 0; i < 3000 && j.llen("long-job:ready") < 3; i++) {
                    Thread.sleep(10);
                }
                assertEquals(3, j.llen("long-job:ready"), "servers ready");
                j.set("long-job:go", Long.toString(redis.timeMicros() + 200_000));
            }
            for (ChildJvm s : servers) {
                assertEquals(0, s.waitFor(Duration.ofSeconds(60)));
            }
        } finally {
            for (ChildJvm s : servers) {
                s.close();
            }
        }
        try (Jedis j = redis.admin()) {
            List<long[]> runs = new ArrayList<>();
            for (String r : j.lrange("long-job:runs", 0, -1)) {
                String[] f = r.split(" ");
                runs.add(new long[] {Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])});
            }
            runs.sort((a, b) -> Long.compare(a[0], b[0]));
            assertTrue(runs.size() >= 3, "runs: " + runs.size());
            for (int i = 0; i < runs.size(); i++) {
                assertEquals(1, runs.get(i)[2], "run " + i + " found nobody else inside");
                assertTrue(runs.get(i)[1] - runs.get(i)[0] >= job * 1000, "run " + i + " took the whole job");
                if (i > 0) {
                    assertTrue(
                            runs.get(i - 1)[1] <= runs.get(i)[0],
                            "run " + i + " began after run " + (i - 1) + " ended");
                }
            }
            List<String> outcomes = j.lrange("long-job:outcomes", 0, -1);
            int elsewhere = Collections.frequency(outcomes, "HELD_ELSEWHERE");
            assertEquals(runs.size(), Collections.frequency(outcomes, "RAN"));
            assertTrue(elsewhere > runs.size() * 10, "the others kept trying while each run held it: " + elsewhere);
            System.out.println("long job: " + runs.size() + " runs of " + job + " ms under a " + ttl
                    + " ms kept-alive lock, " + elsewhere + " attempts found it held elsewhere");
        }
    }

    @Test
    void holderFrozenPastItsTtlWhileAnotherTookTheLockHearsTakenWhenItResumes() throws Exception {
        String name = "frozen-taken";
        try (ChildJvm holder = ChildJvm.start(LockChild.class, "keep", redis.url(), name, "600")) {
            String[] acquired = holder.nextLine(Duration.ofSeconds(30)).split(" ");
            assertEquals("ACQUIRED", acquired[0]);
            holder.signal("STOP");
            awaitGone(name);
            LockHandle taken = assertInstanceOf(
                            Acquisition.Acquired.class, lock.tryAcquire(name, Duration.ofSeconds(30)))
                    .lock();
            holder.signal("CONT");
            assertEquals("LOST TAKEN " + acquired[1], holder.nextLine(Duration.ofSeconds(5)));
            holder.send("ASK");
            assertEquals("HELD false", holder.nextLine(Duration.ofSeconds(5)));
            try (Jedis j = redis.admin()) {
                assertTrue(j.pttl("tollgate:lock:{" + name + "}") > 25_000, "the new holder's ttl was not touched");
            }
            assertTrue(taken.release());
        }
    }

    @Test
    void holderFrozenPastItsTtlHearsExpiredWhenItResumes() throws Exception {
        String name = "frozen-expired";
        try (ChildJvm holder = ChildJvm.start(LockChild.class, "keep", redis.url(), name, "600")) {
            String[] acquired = holder.nextLine(Duration.ofSeconds(30)).split(" ");
            assertEquals("ACQUIRED", acquired[0]);
            holder.send("ASK");
            assertEquals("HELD true", holder.nextLine(Duration.ofSeconds(5)));
            holder.signal("STOP");
            awaitGone(name);
            holder.signal("CONT");
            assertEquals("LOST EXPIRED " + acquired[1], holder.nextLine(Duration.ofSeconds(5)));
            holder.send("ASK");
            assertEquals("HELD false", holder.nextLine(Duration.ofSeconds(5)));
            try (Jedis j = redis.admin()) {
                assertFalse(j.exists("tollgate:lock:{" + name + "}"), "a lost lock is not taken back");
            }
        }
    }

    private static void awaitGone(String name) throws InterruptedException {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 300 && j.exists("tollgate:lock:{" + name + "}"); i++) {
                Thread.sleep(10);
            }
            assertFalse(j.exists("tollgate:lock:{" + name + "}"), "the frozen holder's lock expired");
        }
    }
}
