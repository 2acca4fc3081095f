package dev.tollgate.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisCluster;
import dev.tollgate.testing.TestSettings;
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

    static Tollgate tollgate;
    static BreakerState guard;

    @BeforeAll
    static void connect() {
        List<String> properties = new ArrayList<>(List.of(
                "tollgate.redis.url",
                cluster.url(),
                "tollgate.redis.timeout",
                BUDGET.toMillis() + "ms",
                "tollgate.redis.pool-size",
                "8"));
        properties.addAll(List.of(TestSettings.quota("down", 1000)));
        tollgate = Tollgate.build(TestSettings.read(properties.toArray(String[]::new)));
        guard = tollgate.breakerState().orElseThrow();
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    @Test
    void deadMastersKeysDegradeWithinTheBudgetAndTheOthersStayExact() throws Exception {
        String limit = "down";
        List<String> clients = clientOnEveryMaster(limit);
        for (String c : clients) {
            assertFalse(tollgate.check(limit, c).degraded());
        }
        cluster.kill(DEAD);

        long[] spent = new long[3];
        long slowest = 0;
        for (int round = 0; round < 60; round++) {
            for (int m = 0; m < 3; m++) {
                long start = System.nanoTime();
                Decision d = tollgate.check(limit, clients.get(m));
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
            assertTrue(tollgate.check(limit, clients.get(DEAD)).degraded());
        }
        assertTrue(guard.isOpen(StoreKeys.DEFAULT.of(limit, clients.get(DEAD))), "the dead master's breaker opened");
        for (int m = 0; m < 3; m++) {
            if (m != DEAD) {
                assertFalse(guard.isOpen(StoreKeys.DEFAULT.of(limit, clients.get(m))), "master " + m + " closed");
                Decision d = tollgate.check(limit, clients.get(m));
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
            int owner = cluster.ownerOf(StoreKeys.DEFAULT.of(limit, client));
            if (clients.get(owner).isEmpty()) {
                clients.set(owner, client);
            }
        }
        return clients;
    }
}
