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
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** The article's cron servers as separate JVMs sharing one real Redis. */
class LockAcrossProcessesTest {

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
        link.close();
    }

    @Test
    void threeServersStartingTheSameJobAtOnceRunItExactlyOnce() throws Exception {
        int rounds = 20;
        List<ChildJvm> servers = new ArrayList<>();
        try {
            for (String id : List.of("cron-01", "cron-02", "cron-03")) {
                servers.add(ChildJvm.start(LockChild.class, "race", redis.url(), id, Integer.toString(rounds), "200"));
            }
            try (Jedis j = redis.admin()) {
                awaitReady(j, 3);
                // Every server starts round r at the same Redis instant: start + r * 200 ms.
                j.set("race:go", Long.toString(redis.timeMicros() + 300_000));
            }
            for (ChildJvm s : servers) {
                assertEquals(0, s.waitFor(Duration.ofSeconds(60)));
            }
            try (Jedis j = redis.admin()) {
                for (int r = 0; r < rounds; r++) {
                    List<String> outcomes = new ArrayList<>(j.lrange("race:outcomes:" + r, 0, -1));
                    outcomes.sort(null);
                    assertEquals(List.of("HELD_ELSEWHERE", "HELD_ELSEWHERE", "RAN"), outcomes, "round " + r);
                    assertEquals("1", j.get("race:runs:" + r), "the job ran once in round " + r);
                }
            }
        } finally {
            for (ChildJvm s : servers) {
                s.close();
            }
        }
    }

    @Test
    void sigkilledHoldersLockIsFreedOnlyByItsTtlAndItsTokenCannotTouchTheNextHolder() throws Exception {
        long ttlMillis = 1500;
        String[] acquired;
        try (ChildJvm holder =
                ChildJvm.start(LockChild.class, "hold", redis.url(), "export", Long.toString(ttlMillis))) {
            acquired = holder.nextLine(Duration.ofSeconds(30)).split(" ");
            assertEquals("ACQUIRED", acquired[0]);
            holder.kill();
        }
        String oldToken = acquired[1];
        long oldFence = Long.parseLong(acquired[2]);
        long takenNoEarlierThan = Long.parseLong(acquired[3]);

        LockHandle winner = contendUntilOneAcquires("export", 2);
        long acquiredBy = redis.timeMicros();
        assertTrue(
                acquiredBy >= takenNoEarlierThan + ttlMillis * 1000,
                "acquired " + (acquiredBy - takenNoEarlierThan) / 1000 + " ms after the dead holder took it");
        assertTrue(winner.fencingToken() > oldFence, "the next holder's token is higher");

        LockHandle old = lock.handleFor("export", oldToken, oldFence);
        assertFalse(old.extend(Duration.ofHours(1)), "the dead holder's token cannot extend");
        assertFalse(old.release(), "the dead holder's token cannot release");
        assertInstanceOf(Acquisition.HeldElsewhere.class, lock.tryAcquire("export", Duration.ofSeconds(1)));
        assertTrue(winner.release(), "the new holder still holds it");
    }

    /**
     * {@code contenders} threads try every 20 ms until one gets the lock; every other answer until then
     * must be "held elsewhere". Returns the one winner's handle.
     */
    private static LockHandle contendUntilOneAcquires(String name, int contenders) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(contenders);
        try {
            List<Future<LockHandle>> results = new ArrayList<>();
            for (int i = 0; i < contenders; i++) {
                results.add(pool.submit(() -> {
                    for (int attempt = 0; attempt < 500; attempt++) {
                        Acquisition a = lock.tryAcquire(name, Duration.ofSeconds(30));
                        if (a instanceof Acquisition.Acquired got) {
                            return got.lock();
                        }
                        assertInstanceOf(Acquisition.HeldElsewhere.class, a);
                        if (((Acquisition.HeldElsewhere) a).expiresIn().compareTo(Duration.ofSeconds(2)) > 0) {
                            return null; // the other contender won: its 30 s ttl is visible
                        }
                        Thread.sleep(20);
                    }
                    throw new AssertionError("nobody acquired " + name);
                }));
            }
            List<LockHandle> winners = new ArrayList<>();
            for (Future<LockHandle> f : results) {
                LockHandle h = f.get();
                if (h != null) {
                    winners.add(h);
                }
            }
            assertEquals(1, winners.size(), "exactly one contender acquires once the ttl has passed");
            return winners.get(0);
        } finally {
            pool.shutdownNow();
        }
    }

    private static void awaitReady(Jedis j, int servers) throws InterruptedException {
        for (int i = 0; i < 3000 && j.llen("race:ready") < servers; i++) {
            Thread.sleep(10);
        }
        assertEquals(servers, j.llen("race:ready"), "servers ready");
    }
}
