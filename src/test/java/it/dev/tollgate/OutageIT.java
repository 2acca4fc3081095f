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

/**
 * The article's hung Redis, through Liberty: Redis is SIGSTOPped while the demo serves requests.
 * Fail-open limits keep serving, fail-closed ones answer 503, both are counted as degraded, the
 * breaker opens once (one WARNING), and after SIGCONT a background probe closes it (one INFO) with no
 * request paying for it.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@Alone
public class OutageIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    @RESTClient
    public static HealthClient health;

    static final int CHECKS = 30;
    /** The IT servers' {@code tollgate.redis.timeout} (pom.xml), eight times the default of 250 ms. */
    static final long BUDGET_MILLIS = 2000;
    /** The documented breaker threshold: 3 failed calls in a row open it. */
    static final int THRESHOLD = 3;

    @Test
    void hungRedisDegradesEveryCheckWithinTheBudgetAndRecoversOffTheRequestPath() throws Exception {
        assertEquals(200, Reply.of(demo.helloFor("10.7.0.1")).status());
        Breaker.await(false);
        long redisDecisions = LibertyServer.metric("tollgate_decisions_total", "demo", "allowed");
        long degradedOpen = LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed");
        long degradedClosed = LibertyServer.metric("tollgate_degraded_decisions_total", "demo-cdi", "denied");
        long timed = checksTimed();
        long warningsBefore = logLines("is not answering");
        long infosBefore = logLines("answers again");
        int paid = 0;

        redis.pause();
        try {
            for (int i = 0; i < CHECKS; i++) {
                long start = System.nanoTime();
                Reply r = Reply.of(demo.helloFor("10.7.0.2"));
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertEquals(200, r.status(), "fail-open: served while Redis hangs");
                assertTrue(
                        millis < 2 * BUDGET_MILLIS, "request " + i + " took " + millis + " ms: within 2x the budget");
                if (i == 0) {
                    // The default budget would have answered in ~250 ms: the setting reached the timeout.
                    assertTrue(millis >= BUDGET_MILLIS / 2, "the first request waited for the 2 s budget: " + millis);
                }
                paid += millis >= BUDGET_MILLIS / 2 ? 1 : 0;
                assertFalse(r.header("RateLimit").isPresent(), "a degraded pass claims no remaining count");
            }
            Reply closed = Reply.of(demo.cdi("10.7.0.3"));
            assertEquals(503, closed.status(), "fail-closed limit: refused while Redis cannot be asked");
            assertEquals("1", closed.header("Retry-After").orElseThrow());
            assertTrue(closed.body().contains("fails closed"), closed.body());

            assertEquals(THRESHOLD, paid, "the threshold's checks wait for the budget, none after the breaker opened");
            assertEquals(
                    CHECKS,
                    LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed") - degradedOpen);
            assertEquals(
                    1,
                    LibertyServer.metric("tollgate_degraded_decisions_total", "demo-cdi", "denied") - degradedClosed);
            assertEquals(redisDecisions, LibertyServer.metric("tollgate_decisions_total", "demo", "allowed"));
            assertEquals(timed + CHECKS, checksTimed(), "tollgate_check_seconds counts each degraded check");
            assertEquals(1, Breaker.gauge(), "tollgate_breaker_open");
            Reply ready = Reply.of(health.ready());
            assertEquals(200, ready.status(), "a Redis outage does not take the server out of the balancer");
            String state = AdminHttp.send("GET", "/tollgate/admin/state", AdminHttp.OPERATOR)
                    .body();
            assertTrue(state.contains("\"breakerOpen\":true"), state);
            assertEquals(warningsBefore + 1, logLines("is not answering"), "one WARNING per outage");
        } finally {
            redis.resume();
        }

        Breaker.await(false);
        awaitLogLines("answers again", infosBefore + 1);
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("answers again")
                                && l.contains((CHECKS + 1) + " decisions were degraded meanwhile")),
                "one INFO with the count");
        assertEquals(infosBefore + 1, logLines("answers again"), "one INFO per outage");
        long timedBefore = checksTimed();
        for (int i = 0; i < 3; i++) {
            Reply r = Reply.of(demo.helloFor("10.7.0.4"));
            assertEquals(200, r.status());
            assertEquals("\"demo\";r=" + (99 - i), r.header("RateLimit").orElseThrow());
        }
        assertEquals(timedBefore + 3, checksTimed(), "and each check Redis decided");
    }

    /** {@code tollgate_check_seconds_count{limit="demo"}}: the checks the timer timed. */
    private static long checksTimed() {
        for (String line : LibertyServer.metrics().split("\n")) {
            if (line.startsWith("tollgate_check_seconds_count{") && line.contains("limit=\"demo\"")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no tollgate_check_seconds_count for limit demo on /metrics");
    }

    private static long logLines(String text) throws Exception {
        return LibertyServer.log().stream().filter(l -> l.contains(text)).count();
    }

    /** Waits until the log holds {@code count} lines with {@code text} (the line follows the gauge's change). */
    private static void awaitLogLines(String text, long count) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (logLines(text) < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
    }
}
