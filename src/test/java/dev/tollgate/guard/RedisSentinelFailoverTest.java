package dev.tollgate.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.engine.RedisGuards;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisSentinels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Sentinel failover under load: the master is SIGKILLed, every check meanwhile gets the degraded
 * decision within twice the budget, and once the Sentinels promote the replica decisions are exact again
 * on it, with nothing restarted.
 */
class RedisSentinelFailoverTest {

    @RegisterExtension
    static final RedisSentinels sentinels = new RedisSentinels();

    static final Duration BUDGET = Duration.ofMillis(250);

    static RedisLink link;
    static RedisGuard guard;
    static RateLimiter limiter;
    static final RedisOutageTest.Counts counts = new RedisOutageTest.Counts();

    @BeforeAll
    static void connect() {
        System.out.println("master, replica and 3 sentinels ready in "
                + sentinels.setupTime().toMillis() + " ms");
        link = RedisClients.create(RedisSettings.of(sentinels.url(), BUDGET, 32));
        guard = RedisGuards.forLink(
                link, ExecutorCaller.standalone(GuardSettings.defaults(BUDGET, 32)), Duration.ofMillis(100));
        limiter = new RateLimiter(
                RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link), guard, counts, System::nanoTime);
    }

    @AfterAll
    static void close() {
        guard.close();
        link.close();
    }

    @Test
    void failoverDegradesWithinTheBudgetThenDecidesExactlyOnThePromotedReplica() throws Exception {
        LimitSpec before = spec(1_000_000);
        for (int i = 0; i < 5; i++) {
            assertFalse(limiter.check(before, "k").degraded());
        }
        int oldMaster = sentinels.master().port();
        long killed = System.nanoTime();
        sentinels.killMaster();

        long firstDegraded = -1;
        long recovered = -1;
        long remainingAfter = -1;
        int degraded = 0;
        while (recovered < 0
                && System.nanoTime() - killed < Duration.ofSeconds(20).toNanos()) {
            long start = System.nanoTime();
            Decision d = limiter.check(before, "k");
            long took = System.nanoTime() - start;
            assertTrue(took < BUDGET.multipliedBy(2).toNanos(), "a check took " + took / 1_000_000 + " ms");
            if (d.degraded()) {
                assertTrue(d.allowed(), "fail open");
                degraded++;
                firstDegraded = firstDegraded < 0 ? start - killed : firstDegraded;
            } else if (degraded > 0) {
                recovered = System.nanoTime() - killed;
                remainingAfter = d.remaining();
            }
            Thread.sleep(10);
        }
        assertTrue(recovered > 0, "decisions came back within 20 s of the kill");
        assertNotEquals(oldMaster, sentinels.masterPort(), "the Sentinels promoted the replica");
        System.out.printf(
                "sentinel failover: first degraded check %d ms after the kill, exact again after %d ms, %d checks"
                        + " degraded%n",
                firstDegraded / 1_000_000, recovered / 1_000_000, degraded);

        // Replication is asynchronous: a spend the master acknowledged but had not yet sent to the replica is
        // forgotten by the promoted replica, and that token can be spent again.
        long forgotten = remainingAfter - (1_000_000 - 6);
        System.out.println("sentinel failover: spends forgotten by the promoted replica: " + forgotten);
        assertTrue(forgotten >= 0 && forgotten <= 5, "only spends acknowledged before the kill: " + forgotten);

        LimitSpec fresh = spec(100);
        assertEquals(100, admitted(fresh, 1000, 32), "exact on the promoted replica");
        assertFalse(guard.isOpen());
    }

    private static LimitSpec spec(long quota) {
        return new LimitSpec(LimitPolicy.quota("failover-" + UUID.randomUUID(), quota), new KeySpec.Global(), true);
    }

    /** Non-degraded admissions; a degraded one fails the test, since Redis answers throughout. */
    private static int admitted(LimitSpec limit, int checks, int inFlight) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        try {
            List<Future<Decision>> results = new ArrayList<>();
            for (int i = 0; i < checks; i++) {
                results.add(pool.submit(() -> limiter.check(limit, "k")));
            }
            int allowed = 0;
            for (Future<Decision> f : results) {
                Decision d = f.get();
                assertFalse(d.degraded(), "degraded after the failover");
                allowed += d.allowed() ? 1 : 0;
            }
            return allowed;
        } finally {
            pool.shutdownNow();
        }
    }
}
