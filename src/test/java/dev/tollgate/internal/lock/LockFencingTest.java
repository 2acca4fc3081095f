package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LockHandle;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;

/**
 * Jepsen's lock-set check: a lock guards a read-modify-write of a resource kept outside it. The holder,
 * a separate JVM, is frozen with SIGSTOP between its read and its write, past the lock's ttl; meanwhile
 * this process takes the lock and writes. Then the frozen holder is thawed and writes what it read
 * before. An acknowledged write whose element is missing from the final value is a lost update.
 */
class LockFencingTest {

    private static final int ROUNDS = 3;
    private static final long TTL_MILLIS = 400;

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisDistributedLock lock;
    /** The resource's own client: Tollgate's link sends only Tollgate's commands. */
    private static RedisClient resource;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofMillis(500), 4));
        lock = RedisDistributedLock.using(link);
        resource = RedisClient.create(redis.host(), redis.port());
    }

    @AfterAll
    static void close() {
        resource.close();
        link.close();
    }

    @BeforeEach
    void clean() {
        redis.flushAll();
    }

    @Test
    void unfencedResourceLosesAnUpdateWhenTheHolderIsPausedPastItsTtl() throws Exception {
        int lost = lostUpdates(false);
        System.out.println("lock-set without fencing: " + lost + " lost updates in " + ROUNDS + " rounds");
        assertEquals(ROUNDS, lost, "each round, the paused holder's stale write overwrites the next holder's");
    }

    @Test
    void fencedResourceLosesNoUpdateWhenTheHolderIsPausedPastItsTtl() throws Exception {
        int lost = lostUpdates(true);
        System.out.println("lock-set with fencing: " + lost + " lost updates in " + ROUNDS + " rounds");
        assertEquals(0, lost);
    }

    /** Runs the rounds; returns how many acknowledged elements the final value lacks. */
    private int lostUpdates(boolean fenced) throws Exception {
        List<String> acknowledged = new ArrayList<>();
        try (ChildJvm paused = ChildJvm.start(
                LockChild.class,
                "writer",
                redis.url(),
                "lock-set",
                Long.toString(TTL_MILLIS),
                Boolean.toString(fenced))) {
            for (int r = 0; r < ROUNDS; r++) {
                paused.send("GO a" + r);
                assertTrue(paused.nextLine(Duration.ofSeconds(30)).startsWith("READ "));
                paused.signal("STOP");
                awaitExpiry("lock-set");
                assertTrue(writeUnderLock("b" + r, fenced), "round " + r + ": the next holder's write is taken");
                acknowledged.add("b" + r);
                paused.signal("CONT");
                paused.send("WRITE");
                // The stale write is attempted every round: refused by a fenced resource, taken by an unfenced one.
                assertEquals(
                        fenced ? "WROTE rejected" : "WROTE ok",
                        paused.nextLine(Duration.ofSeconds(30)),
                        "round " + r + ": the thawed holder's stale write");
                if (!fenced) {
                    acknowledged.add("a" + r);
                }
            }
        }
        List<String> kept;
        try (Jedis j = redis.admin()) {
            kept = FencedResource.elements(j.get(FencedResource.KEY) == null ? "" : j.get(FencedResource.KEY));
        }
        return (int) acknowledged.stream().filter(e -> !kept.contains(e)).count();
    }

    private static boolean writeUnderLock(String element, boolean fenced) {
        try (LockHandle held =
                lock.tryAcquire("lock-set", Duration.ofSeconds(10)).handle().orElseThrow()) {
            String value = FencedResource.read(resource);
            return FencedResource.write(resource, FencedResource.append(value, element), held, fenced);
        }
    }

    private static void awaitExpiry(String name) throws InterruptedException {
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 1000 && j.exists("tollgate:lock:{" + name + "}"); i++) {
                Thread.sleep(10);
            }
            assertTrue(!j.exists("tollgate:lock:{" + name + "}"), "the frozen holder's lock expired");
        }
    }
}
