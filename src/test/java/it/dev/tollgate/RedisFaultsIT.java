package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ClientPauseMode;

/**
 * The faults beyond OutageIT's SIGSTOP, on the production path (Liberty, MicroProfile Fault Tolerance's
 * timeout and breaker, the 2 s budget of the IT servers): a killed Redis is refused at once and, restarted
 * empty, has its scripts back before any request; a Redis that pauses writes holds the threshold's checks
 * for the budget and no more, and a fail-closed limit answers 503 with {@code Retry-After: 1}.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
public class RedisFaultsIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    @Test
    void killedRedisIsRefusedAtOnceAndTheRestartedOneHasItsScriptsBeforeAnyRequest() throws Exception {
        assertEquals(200, Reply.of(demo.helloFor("10.8.0.1")).status());
        Breaker.await(false);
        long degraded = LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed");
        redis.kill();
        try {
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                Reply r = Reply.of(demo.helloFor("10.8.0.2"));
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertEquals(200, r.status(), "fail-open while Redis is dead");
                assertFalse(r.header("RateLimit").isPresent(), "a degraded pass claims no remaining count");
                assertTrue(millis < OutageIT.BUDGET_MILLIS / 2, "refused, not waited for: " + millis + " ms");
            }
            assertEquals(10, LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed") - degraded);
            assertEquals(1, Breaker.gauge(), "refusals opened the breaker");
        } finally {
            redis.restart();
        }
        Breaker.await(false);
        // Counted from here, not from the restart: the other server's breaker never opened (it had no
        // requests), so its heartbeat may have met the empty cache first and EVALed its own script.
        long evals = evalCalls();
        Reply r = Reply.of(demo.helloFor("10.8.0.3"));
        assertEquals("\"demo\";r=99", r.header("RateLimit").orElseThrow(), "exact on the restarted Redis");
        assertEquals(
                evals,
                evalCalls(),
                "the probe reloaded the scripts: the request did not meet NOSCRIPT and fall back to EVAL");
    }

    /** {@code EVAL} calls since the restarted Redis started: those of a script it did not have cached. */
    private static long evalCalls() {
        try (Jedis j = redis.admin()) {
            for (String line : j.info("commandstats").split("\r?\n")) {
                if (line.startsWith("cmdstat_eval:calls=")) {
                    return Long.parseLong(line.substring("cmdstat_eval:calls=".length(), line.indexOf(',')));
                }
            }
            return 0;
        }
    }

    @Test
    void pausedWritesHoldTheThresholdsChecksForTheBudgetAndNoMore() throws Exception {
        assertEquals(200, Reply.of(demo.helloFor("10.8.1.1")).status());
        Breaker.await(false);
        try (Jedis admin = redis.admin()) {
            admin.clientPause(60_000, ClientPauseMode.WRITE);
            try {
                int paid = 0;
                for (int i = 0; i < 10; i++) {
                    long start = System.nanoTime();
                    Reply r = Reply.of(demo.helloFor("10.8.1.2"));
                    long millis = (System.nanoTime() - start) / 1_000_000;
                    assertEquals(200, r.status());
                    assertFalse(r.header("RateLimit").isPresent());
                    assertTrue(millis < 2 * OutageIT.BUDGET_MILLIS, "within 2x the budget: " + millis + " ms");
                    paid += millis >= OutageIT.BUDGET_MILLIS / 2 ? 1 : 0;
                }
                assertEquals(OutageIT.THRESHOLD, paid, "the threshold's checks wait for the budget, then none");
                Reply closed = Reply.of(demo.cdi("10.8.1.3"));
                assertEquals(503, closed.status(), "fail-closed while scripts cannot run");
                assertEquals("1", closed.header("Retry-After").orElseThrow());
            } finally {
                admin.clientUnpause();
            }
        }
        Breaker.await(false);
        assertEquals(
                "\"demo\";r=99",
                Reply.of(demo.helloFor("10.8.1.4")).header("RateLimit").orElseThrow());
    }
}
