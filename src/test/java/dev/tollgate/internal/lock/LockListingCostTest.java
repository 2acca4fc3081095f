package dev.tollgate.internal.lock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.LockHold;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * What an operator's lock listing costs Redis (issue 22, finding 5): the commands Redis counts ({@code
 * INFO commandstats}) for one listing are the same with 0 and with 100,000 unrelated keys in the
 * database, and listings that overlap share one reading.
 */
class LockListingCostTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 8));
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @BeforeEach
    void empty() {
        redis.flushAll();
    }

    @Test
    void aListingCostsTheSameCommandsWithAndWithoutAHundredThousandOtherKeys() {
        try (RedisDistributedLock locks = RedisDistributedLock.using(link)) {
            for (String name : List.of("export", "report", "billing")) {
                assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire(name, Duration.ofMinutes(1)));
            }
            locks.held(); // the scripts are cached from here on
            long empty = commandsOf(locks::held, 3);
            try (Jedis j = redis.admin()) {
                // Other keys, lock-like ones included: the fences of locks long gone.
                j.eval("for i = 1, 100000 do redis.call('SET', (i % 2 == 0 and 'tollgate:fence:{old-' or 'app:')"
                        + " .. i .. (i % 2 == 0 and '}' or ''), 'x') end");
                assertTrue(j.dbSize() > 100_000, "keys: " + j.dbSize());
            }
            long full = commandsOf(locks::held, 3);
            assertEquals(empty, full, "Redis commands per listing (scripts' own included), 0 and 100,000 other keys");
        }
    }

    @Test
    void aLockFoundFreeLeavesTheIndexUnlessTakenAgain() {
        try (RedisDistributedLock locks = RedisDistributedLock.using(link)) {
            LockHandle once = ((Acquisition.Acquired) locks.tryAcquire("once", Duration.ofMinutes(1))).lock();
            assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire("kept", Duration.ofMinutes(1)));
            assertTrue(once.release());
            assertEquals(List.of("kept"), names(locks.held()));
            try (Jedis j = redis.admin()) {
                assertEquals(List.of("kept"), j.zrange(LockNames.indexKey(KeyPrefix.NONE), 0, -1), "the free one left");
            }
        }
    }

    @Test
    void theIndexKeepsTheLatestNamesTakenOnly() {
        try (RedisDistributedLock locks = RedisDistributedLock.using(link)) {
            for (int i = 0; i <= LockIndex.KEPT; i++) {
                assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire("n" + i, Duration.ofMinutes(1)));
            }
            try (Jedis j = redis.admin()) {
                assertEquals(LockIndex.KEPT, j.zcard(LockNames.indexKey(KeyPrefix.NONE)));
                assertEquals(
                        null, j.zscore(LockNames.indexKey(KeyPrefix.NONE), "n0"), "the one taken longest ago left");
            }
            assertEquals(LockIndex.KEPT, locks.held().size());
        }
    }

    @Test
    void listingsThatOverlapShareOneReading() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger indexReads = new AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
        Guard holdingTheFirstRead = new Guard() {
            @Override
            public <T> T call(String storeKey, Callable<T> call) {
                if (armed.get()
                        && storeKey.equals(LockNames.indexKey(KeyPrefix.NONE))
                        && indexReads.incrementAndGet() == 1) {
                    entered.countDown();
                    await(go);
                }
                return Guard.DIRECT.call(storeKey, call);
            }
        };
        try (RedisDistributedLock locks = RedisDistributedLock.using(new GuardedRedis(link, holdingTheFirstRead))) {
            assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire("export", Duration.ofMinutes(1)));
            armed.set(true); // the acquisition recorded the name: from here, index reads
            CompletableFuture<List<LockHold>> first = CompletableFuture.supplyAsync(locks::held);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            Thread[] second = new Thread[1];
            CompletableFuture<List<LockHold>> joined = new CompletableFuture<>();
            second[0] = new Thread(() -> joined.complete(locks.held()));
            second[0].start();
            while (second[0].getState() != Thread.State.WAITING) { // parked on the first reading
                assertTrue(second[0].isAlive(), "the second listing ended on its own");
                Thread.onSpinWait();
            }
            go.countDown();
            List<LockHold> a = first.get(10, TimeUnit.SECONDS);
            assertSame(a, joined.get(10, TimeUnit.SECONDS), "the second listing got the first one's reading");
            assertEquals(List.of("export"), names(a));
            assertEquals(1, indexReads.get(), "one reading of the index for two overlapping listings");
            locks.held();
            assertEquals(2, indexReads.get(), "the next listing reads afresh");
        }
    }

    /** The commands Redis ran for {@code listing}, which must find {@code expected} locks held. */
    private static long commandsOf(java.util.function.Supplier<List<LockHold>> listing, int expected) {
        try (Jedis j = redis.admin()) {
            j.configResetStat();
            assertEquals(expected, listing.get().size());
            String stats = j.info("commandstats");
            assertTrue(!stats.contains("cmdstat_scan:"), stats);
            return calls(stats);
        }
    }

    /** The sum of {@code calls=} over every command but INFO and CONFIG (this test's own). */
    private static long calls(String commandstats) {
        long sum = 0;
        for (String line : commandstats.split("\r?\n")) {
            if (line.startsWith("cmdstat_")
                    && !line.startsWith("cmdstat_info:")
                    && !line.startsWith("cmdstat_config")) {
                int from = line.indexOf("calls=") + "calls=".length();
                sum += Long.parseLong(line.substring(from, line.indexOf(',', from)));
            }
        }
        return sum;
    }

    private static List<String> names(List<LockHold> held) {
        return held.stream().map(LockHold::name).toList();
    }

    private static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }
}
