package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.TestSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A leased quota of 100 calls shared by four servers (JVMs) on one real Redis: in each of 10 trials,
 * 1,000 calls (250 from each) never admit more than 100, and once the leases are back Redis holds exactly
 * what was not admitted. A server SIGKILLed holding a lease loses at most what it leased and did not
 * spend, the first lease of the same bucket after the victim's lease time and grace counts that lease's
 * tokens as abandoned, and the others can spend everything else at once: what Redis holds is theirs.
 */
class LeasesAcrossProcessesTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Test
    void fourServersNeverAdmitMoreThanTheQuotaAndRedisHoldsTheRestOnceTheLeasesAreBack() throws Exception {
        redis.flushAll();
        List<ChildJvm> servers = new ArrayList<>();
        try {
            for (int s = 0; s < 4; s++) {
                servers.add(ChildJvm.start(LeaseChild.class, redis.url(), "4"));
            }
            for (ChildJvm s : servers) {
                assertEquals("READY", s.nextLine(WAIT));
            }
            for (int trial = 0; trial < 10; trial++) {
                String limit = "q" + trial;
                servers.forEach(s -> s.send("RUN " + limit + " 250"));
                int admitted = 0;
                for (ChildJvm s : servers) {
                    admitted += Integer.parseInt(s.nextLine(WAIT).split(" ")[1]);
                }
                assertTrue(admitted <= 100, "trial " + trial + ": " + admitted + " admitted of 100");
                servers.forEach(s -> s.send("RETURN"));
                for (ChildJvm s : servers) {
                    assertEquals("RETURNED", s.nextLine(WAIT));
                }
                assertEquals(100 - admitted, bucket(limit), "trial " + trial + ": Redis holds what was not admitted");
            }
        } finally {
            for (ChildJvm s : servers) {
                s.close();
            }
        }
    }

    @Test
    void aServerKilledHoldingALeaseLosesAtMostItsLeaseAndTheOthersSpendTheRest() throws Exception {
        redis.flushAll();
        try (ChildJvm victim = ChildJvm.start(LeaseChild.class, redis.url(), "2")) {
            assertEquals("READY", victim.nextLine(WAIT));
            victim.send("RUN q0 12");
            String[] ran = victim.nextLine(WAIT).split(" ");
            long spent = Long.parseLong(ran[1]);
            long taken = Long.parseLong(ran[3]);
            long leased = Long.parseLong(ran[5]);
            assertTrue(leased > 0, "the victim holds leased tokens: " + String.join(" ", ran));
            victim.kill();
            long held = bucket("q0");
            long lost = 100 - spent - held;
            assertTrue(lost > 0 && lost <= leased, lost + " lost; the victim held " + leased);
            TollgateSettings settings = TestSettings.read(
                    "tollgate.redis.url", redis.url(),
                    "tollgate.redis.timeout", "5s",
                    "tollgate.fail-open", "false",
                    "tollgate.limits.q0.capacity", "100",
                    "tollgate.limits.q0.refill-tokens", "0",
                    "tollgate.limits.q0.persist", "true",
                    "tollgate.limits.q0.key", "global",
                    "tollgate.limits.q0.lease", "2s");
            AtomicLong abandoned = new AtomicLong();
            LeaseListener counting = new LeaseListener() {
                @Override
                public void onAbandoned(LimitSpec limit, long tokens) {
                    abandoned.addAndGet(tokens);
                }
            };
            try (Engine survivor = Engine.builder(settings)
                    .serverCount(() -> 2)
                    .leaseListener(counting)
                    .build()) {
                long admitted = 0;
                // A few calls a second: leases, until one of them finds the victim's last lease abandoned
                // (its lease time and as long again after it was taken).
                long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                while (abandoned.get() == 0 && System.nanoTime() < deadline) {
                    admitted += survivor.check("q0", "any").allowed() ? 1 : 0;
                    Thread.sleep(100);
                }
                assertTrue(
                        abandoned.get() >= lost && abandoned.get() <= taken,
                        abandoned + " tokens counted abandoned: at least the " + lost + " lost, at most the " + taken
                                + " the victim leased");
                while (survivor.check("q0", "any").allowed()) {
                    admitted++;
                }
                survivor.limiter().returnLeases();
                assertEquals(held, admitted, "the survivor spends all Redis held once the victim died");
                assertEquals(0, bucket("q0"));
            }
        }
    }

    private static long bucket(String limit) {
        try (Jedis j = redis.admin()) {
            String key = j.keys("tg:tk:{" + limit + ":*").iterator().next();
            return StoredBucket.read(j, key).wholeTokens();
        }
    }
}
