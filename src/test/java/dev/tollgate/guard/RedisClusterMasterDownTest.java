package dev.tollgate.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.engine.RedisGuards;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.DecisionListener;
import dev.tollgate.ratelimit.KeySpec;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.ratelimit.StoreKeys;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.testing.RedisCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * One master of three SIGKILLed: its keys get degraded decisions within the budget, the other masters'
 * keys keep exact ones, whatever the order of the traffic: each master has its own breaker, so the dead
 * master's opens and the others' stay closed.
 */
class RedisClusterMasterDownTest {

    @RegisterExtension
    static final RedisCluster cluster = new RedisCluster(3);

    static final Duration BUDGET = Duration.ofMillis(250);
    static final int DEAD = 2;

    static RedisLink link;
    static ShardedGuard guard;
    static RateLimiter limiter;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(cluster.url(), BUDGET, 8));
        guard = RedisGuards.perMaster(
                link, () -> ExecutorCaller.standalone(GuardSettings.defaults(BUDGET, 8)), Duration.ofMillis(100));
        limiter = new RateLimiter(
                RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link),
                guard,
                DecisionListener.NONE,
                System::nanoTime);
    }

    @AfterAll
    static void close() {
        guard.close();
        link.close();
    }

    @Test
    void deadMastersKeysDegradeWithinTheBudgetAndTheOthersStayExact() throws Exception {
        LimitSpec limit =
                new LimitSpec(LimitPolicy.quota("down-" + UUID.randomUUID(), 1000), new KeySpec.Global(), true);
        List<String> clients = clientOnEveryMaster(limit.name());
        for (String c : clients) {
            assertFalse(limiter.check(limit, c).degraded());
        }
        cluster.kill(DEAD);

        long[] spent = new long[3];
        long slowest = 0;
        for (int round = 0; round < 60; round++) {
            for (int m = 0; m < 3; m++) {
                long start = System.nanoTime();
                Decision d = limiter.check(limit, clients.get(m));
                slowest = Math.max(slowest, System.nanoTime() - start);
                if (m == DEAD) {
                    assertTrue(d.degraded() && d.allowed(), "the dead master's key: fail open, round " + round);
                } else {
                    assertFalse(d.degraded(), "master " + m + ", round " + round + ": interleaved successes");
                    assertEquals(1000 - 2 - spent[m]++, d.remaining(), "master " + m + " exact");
                }
            }
        }
        assertTrue(slowest < BUDGET.multipliedBy(2).toNanos(), "slowest check " + slowest / 1_000_000 + " ms");
        System.out.println("dead master, round robin: slowest check " + slowest / 1_000_000 + " ms");

        // Many checks in a row on the dead master's key open its breaker, and only its.
        for (int i = 0; i < 10; i++) {
            assertTrue(limiter.check(limit, clients.get(DEAD)).degraded());
        }
        assertTrue(guard.isOpen(StoreKeys.of(limit.name(), clients.get(DEAD))), "the dead master's breaker opened");
        for (int m = 0; m < 3; m++) {
            if (m != DEAD) {
                assertFalse(guard.isOpen(StoreKeys.of(limit.name(), clients.get(m))), "master " + m + " closed");
                Decision d = limiter.check(limit, clients.get(m));
                assertFalse(d.degraded(), "a live master's key keeps its exact decision");
                assertEquals(1000 - 2 - spent[m]++, d.remaining());
            }
        }
    }

    /** Client keys whose buckets live on master 0, 1 and 2, in that order. */
    static List<String> clientOnEveryMaster(String limit) {
        List<String> clients = new ArrayList<>(List.of("", "", ""));
        while (clients.contains("")) {
            String client = UUID.randomUUID().toString();
            int owner = cluster.ownerOf(StoreKeys.of(limit, client));
            if (clients.get(owner).isEmpty()) {
                clients.set(owner, client);
            }
        }
        return clients;
    }
}
