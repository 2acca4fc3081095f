package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The article's hung Redis, through Liberty: Redis is SIGSTOPped while the demo serves requests.
 * Fail-open limits keep serving, fail-closed ones answer 503, both are counted as degraded, the
 * breaker opens once (one WARNING), and after SIGCONT a background probe closes it (one INFO) with no
 * request paying for it.
 */
class OutageIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    static final int CHECKS = 30;

    @Test
    void hungRedisDegradesEveryCheckWithinTheBudgetAndRecoversOffTheRequestPath() throws Exception {
        assertEquals(
                200,
                LibertyServer.get("/demo/hello", "X-Forwarded-For", "10.7.0.1").statusCode());
        awaitBreaker(false);
        long redisDecisions = LibertyServer.metric("tollgate_decisions_total", "demo", "allowed");
        long degradedOpen = LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed");
        long degradedClosed = LibertyServer.metric("tollgate_degraded_decisions_total", "demo-cdi", "denied");
        long warningsBefore = logLines("is not answering");

        redis.pause();
        try {
            for (int i = 0; i < CHECKS; i++) {
                long start = System.nanoTime();
                HttpResponse<String> r = LibertyServer.get("/demo/hello", "X-Forwarded-For", "10.7.0.2");
                long millis = (System.nanoTime() - start) / 1_000_000;
                assertEquals(200, r.statusCode(), "fail-open: served while Redis hangs");
                assertTrue(millis < 1000, "request " + i + " took " + millis + " ms");
                assertFalse(
                        r.headers().firstValue("RateLimit").isPresent(), "a degraded pass claims no remaining count");
            }
            HttpResponse<String> closed = LibertyServer.get("/demo/cdi", "X-Forwarded-For", "10.7.0.3");
            assertEquals(503, closed.statusCode(), "fail-closed limit: refused while Redis cannot be asked");
            assertTrue(closed.headers().firstValue("Retry-After").isPresent());
            assertTrue(closed.body().contains("fails closed"), closed.body());

            assertEquals(
                    CHECKS,
                    LibertyServer.metric("tollgate_degraded_decisions_total", "demo", "allowed") - degradedOpen);
            assertEquals(
                    1,
                    LibertyServer.metric("tollgate_degraded_decisions_total", "demo-cdi", "denied") - degradedClosed);
            assertEquals(redisDecisions, LibertyServer.metric("tollgate_decisions_total", "demo", "allowed"));
            assertEquals(1, gauge(), "tollgate_breaker_open");
            HttpResponse<String> ready = LibertyServer.get("/health/ready");
            assertEquals(200, ready.statusCode(), "a Redis outage does not take the server out of the balancer");
            assertTrue(ready.body().contains("\"breakerOpen\":true"), ready.body());
            assertEquals(warningsBefore + 1, logLines("is not answering"), "one WARNING per outage");
        } finally {
            redis.resume();
        }

        awaitBreaker(false);
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("answers again")
                                && l.contains((CHECKS + 1) + " decisions were degraded meanwhile")),
                "one INFO with the count");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> r = LibertyServer.get("/demo/hello", "X-Forwarded-For", "10.7.0.4");
            assertEquals(200, r.statusCode());
            assertEquals(
                    "\"demo\";r=" + (99 - i),
                    r.headers().firstValue("RateLimit").orElseThrow());
        }
    }

    private static long logLines(String text) throws Exception {
        return LibertyServer.log().stream().filter(l -> l.contains(text)).count();
    }

    private static long gauge() throws Exception {
        for (String line :
                LibertyServer.get("/metrics?scope=application").body().split("\n")) {
            if (line.startsWith("tollgate_breaker_open{")) {
                return (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        throw new AssertionError("no tollgate_breaker_open gauge on /metrics");
    }

    private static void awaitBreaker(boolean open) throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (System.nanoTime() < deadline) {
            if ((gauge() == 1) == open) {
                return;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("breaker did not become " + (open ? "open" : "closed") + " within 10 s");
    }
}
