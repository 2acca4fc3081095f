package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockHandle;
import dev.tollgate.LockHold;
import dev.tollgate.LockLost;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.LogCapture;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.args.ClientPauseMode;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisClusterCRC16;

class RedisDistributedLockTest extends DistributedLockContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final List<LockLost> LOST = new CopyOnWriteArrayList<>();
    private static RedisLink link;
    private static RedisDistributedLock lock;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 32));
        lock = RedisDistributedLock.using(GuardedRedis.unguarded(link), LOST::add);
    }

    @AfterAll
    static void close() {
        lock.close();
        link.close();
    }

    @Override
    protected List<LockLost> lost() {
        return LOST;
    }

    @Override
    protected DistributedLock lock() {
        return lock;
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        redis.elapse(d);
    }

    @Override
    protected long nowMicros() {
        return redis.timeMicros();
    }

    @Test
    void eachTokenIsAboveTheLastPlusOneEvenWhenRedissClockStepsBack() {
        String name = freshName();
        // The last token an hour ahead of TIME: what a clock stepped back by an hour leaves behind.
        long last = redis.timeMicros() + Duration.ofHours(1).toNanos() / 1000;
        try (Jedis j = redis.admin()) {
            j.set("tollgate:fence:{" + name + "}", Long.toString(last));
        }
        for (int i = 1; i <= 3; i++) {
            LockHandle h = acquire(name, Duration.ofSeconds(10));
            assertEquals(last + i, h.fencingToken(), "token " + i + ": the last one plus one, not the clock");
            assertTrue(h.release());
        }
    }

    @Test
    void isHeldCountsFromWhenTheAcquireWasSent() throws Exception {
        String name = freshName();
        long start;
        LockHandle h;
        try (Jedis admin = redis.admin()) {
            start = System.nanoTime();
            // The acquire is sent now and answered when the pause ends, 700 ms later.
            admin.clientPause(700, ClientPauseMode.WRITE);
            h = acquire(name, Duration.ofMillis(1000));
        }
        long answered = System.nanoTime() - start;
        assertTrue(answered >= 690_000_000L, "the acquire waited out the pause: " + answered / 1_000_000 + " ms");
        // Counted from when it was sent (just after start) the handle ends at start + 1,000 ms; counted from
        // the answer, not before start + 1,690 ms. Looked at 300 ms past the first: the tolerance for a
        // loaded machine between start and the send, far from the 690 ms that tell the two apart.
        while (System.nanoTime() - start < 1_300_000_000L) {
            Thread.sleep(10);
        }
        assertFalse(h.isHeld(), "1,300 ms after it was sent, a 1,000 ms lock's handle is no longer held");
    }

    @Test
    void lockKeyHoldsTheTokenWithTheTtlAndSharesASlotWithTheFenceKey() {
        String name = freshName();
        HeldLock held = (HeldLock) acquire(name, Duration.ofSeconds(30));
        String lockKey = "tollgate:lock:{" + name + "}";
        String fenceKey = "tollgate:fence:{" + name + "}";
        try (Jedis j = redis.admin()) {
            assertEquals(held.token(), j.get(lockKey));
            long ttl = j.pttl(lockKey);
            assertTrue(ttl > 29_000 && ttl <= 30_000, "ttl " + ttl);
            assertEquals(Long.toString(held.fencingToken()), j.get(fenceKey));
            assertEquals(-1, j.pttl(fenceKey), "the last token never expires, so tokens never repeat");
        }
        assertEquals(JedisClusterCRC16.getSlot(lockKey), JedisClusterCRC16.getSlot(fenceKey));
    }

    @Test
    void forcedReleaseKeepsFencingSafeTheOldHoldersStaleWriteIsRefused() {
        String name = freshName();
        try (RedisClient resource = RedisClient.create(redis.host(), redis.port())) {
            resource.del(FencedResource.KEY, FencedResource.LAST_TOKEN);
            LockHandle stuck = acquire(name, Duration.ofSeconds(30));
            assertTrue(FencedResource.write(resource, "stuck-1", stuck, true));
            assertTrue(lock.forceRelease(name));
            LockHandle next = acquire(name, Duration.ofSeconds(30));
            assertTrue(FencedResource.write(resource, "next", next, true));
            assertFalse(FencedResource.write(resource, "stuck-2", stuck, true), "the old holder's write is refused");
            assertEquals("next", FencedResource.read(resource));
            assertTrue(next.release());
        }
    }

    @Test
    void aLockKeyWithoutAHoldersNameIsListedWithAnEmptyHolder() {
        String name = freshName();
        acquire(name, Duration.ofSeconds(20)); // listed by name: the lock index has it
        try (Jedis j = redis.admin()) {
            j.set(
                    "tollgate:lock:{" + name + "}",
                    "0123456789abcdef0123456789abcdef",
                    SetParams.setParams().px(20_000));
        }
        LockHold hold = lock.held().stream()
                .filter(h -> h.name().equals(name))
                .findFirst()
                .orElseThrow();
        assertEquals("", hold.holder());
        assertTrue(lock.forceRelease(name));
    }

    @Test
    void releaseDeletesOnlyTheLockKeyAndKeepsTheFence() {
        String name = freshName();
        LockHandle held = acquire(name, Duration.ofSeconds(30));
        held.close();
        try (Jedis j = redis.admin()) {
            assertEquals(0, j.exists("tollgate:lock:{" + name + "}") ? 1 : 0);
            assertEquals(Long.toString(held.fencingToken()), j.get("tollgate:fence:{" + name + "}"));
        }
    }

    /** SET NX then INCR failed on a corrupted counter: the lock stayed taken under a token nobody had. */
    @Test
    void fenceKeyItDidNotWriteIsReplacedAndTheLockIsTakenWithATokenAboveTheClock() {
        for (String kind : new String[] {"text", "huge", "hash"}) {
            String name = freshName();
            String fenceKey = "tollgate:fence:{" + name + "}";
            try (Jedis j = redis.admin()) {
                switch (kind) {
                    case "text" -> j.set(fenceKey, "not a number");
                    case "huge" -> j.set(fenceKey, "1e300");
                    default -> j.hset(fenceKey, "x", "1");
                }
            }
            long before = redis.timeMicros();
            HeldLock held = (HeldLock) acquire(name, Duration.ofSeconds(30));
            assertTrue(held.fencingToken() >= before, kind + ": token " + held.fencingToken());
            try (Jedis j = redis.admin()) {
                assertEquals(held.token(), j.get("tollgate:lock:{" + name + "}"), kind + ": the lock is the caller's");
                assertEquals(Long.toString(held.fencingToken()), j.get(fenceKey), kind);
            }
            assertTrue(held.release());
        }
    }

    @Test
    void defaultRedisKeepsItsKeysSoNothingIsWarned() {
        try (LogCapture log = new LogCapture(RedisDistributedLock.class)) {
            RedisDistributedLock fresh = RedisDistributedLock.using(link);
            fresh.checkEvictionPolicy();
            acquire(freshName(), Duration.ofSeconds(1));
            assertEquals(List.of(), log.at(Level.WARNING));
        }
    }

    @Test
    void lockSetByHandWithoutExpiryIsHeldElsewhereForever() {
        String name = freshName();
        try (Jedis j = redis.admin()) {
            j.set("tollgate:lock:{" + name + "}", "someone");
        }
        Acquisition.HeldElsewhere held =
                assertInstanceOf(Acquisition.HeldElsewhere.class, lock.tryAcquire(name, Duration.ofSeconds(1)));
        assertEquals(ChronoUnit.FOREVER.getDuration(), held.expiresIn());
    }

    @Test
    void scriptFlushCostsNoAcquisition() {
        String name = freshName();
        try (Jedis j = redis.admin()) {
            j.scriptFlush();
        }
        LockHandle held = acquire(name, Duration.ofSeconds(10));
        try (Jedis j = redis.admin()) {
            j.scriptFlush();
        }
        assertTrue(held.extend(Duration.ofSeconds(20)));
        try (Jedis j = redis.admin()) {
            j.scriptFlush();
        }
        assertTrue(held.release());
    }
}
