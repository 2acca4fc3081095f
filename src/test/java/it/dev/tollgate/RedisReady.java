package it.dev.tollgate;

import java.time.Duration;

/**
 * Waits until a server talks to the ITs' Redis normally: reachable, breaker closed, and a check through
 * the guard done. The Redis is emptied (and may have been killed or frozen) between IT classes, so the
 * servers' pooled connections can be stale, and a burst against a cold client on a loaded machine opens
 * the breaker: the decisions are then degraded, which is right, but not what these tests measure.
 */
final class RedisReady {

    private RedisReady() {}

    /**
     * Warms the server at {@code baseUrl} until Redis answers and the server's breaker is closed (its
     * operator state: readiness tells anonymous callers only up or down) across a check through its guard.
     */
    static void await(String baseUrl) throws Exception {
        DemoClient demo = Load.client(baseUrl);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            Reply.of(demo.inflight(1, "10.0.99.1"));
            last = state(baseUrl);
            if (redisAnswers() && last.contains("\"breakerOpen\":false")) {
                Reply.of(demo.inflight(1, "10.0.99.1"));
                if (state(baseUrl).contains("\"breakerOpen\":false")) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError(baseUrl + " did not get a healthy link to Redis within 60 s: " + last);
    }

    private static String state(String baseUrl) throws Exception {
        return AdminHttp.send(baseUrl, "GET", "/tollgate/admin/state", AdminHttp.OPERATOR)
                .body();
    }

    private static boolean redisAnswers() {
        try (redis.clients.jedis.Jedis j = DemoDeployment.redis.admin()) {
            return "PONG".equals(j.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Both IT servers. */
    static void awaitBoth() throws Exception {
        await(LibertyServer.baseUrl());
        await(LibertyServer.secondBaseUrl());
    }

    /**
     * Both servers warm for a burst: each answers a burst of 32 concurrent requests with every decision
     * Redis's. A cold pool has one connection; a burst then asks workers to make the others, and a loaded
     * machine can refuse a few of those calls (degraded at once). The exactness ITs count bursts on a
     * warm pool; each warm-up round spends its own client's bucket of {@code demo}.
     */
    static void awaitBurstReady() throws Exception {
        awaitBoth();
        for (String server : java.util.List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl())) {
            long degraded = -1;
            for (int round = 1; round <= 10 && degraded != 0; round++) {
                String client = "10.0.98." + round;
                long before = degraded(server);
                Load.fire(32, 32, i -> server, c -> c.helloFor(client));
                degraded = degraded(server) - before;
            }
            if (degraded != 0) {
                throw new AssertionError(server + " made degraded decisions in each of 10 warm-up bursts");
            }
        }
    }

    private static long degraded(String server) {
        return LibertyServer.metric(server, "tollgate_degraded_decisions_total", "demo", "allowed")
                + LibertyServer.metric(server, "tollgate_degraded_decisions_total", "demo", "denied");
    }
}
