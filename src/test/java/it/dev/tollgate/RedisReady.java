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

    /** Warms the server at {@code baseUrl} until its health says Redis answers and the breaker is closed. */
    static void await(String baseUrl) throws Exception {
        DemoClient demo = Load.client(baseUrl);
        HealthClient health = new org.microshed.testing.jaxrs.RestClientBuilder()
                .withAppContextRoot(baseUrl)
                .withJaxrsPath("/")
                .build(HealthClient.class);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            Reply.of(demo.inflight(1, "10.0.99.1"));
            last = Reply.of(health.ready()).body();
            if (last.contains("\"redisReachable\":true") && last.contains("\"breakerOpen\":false")) {
                Reply.of(demo.inflight(1, "10.0.99.1"));
                if (Reply.of(health.ready()).body().contains("\"breakerOpen\":false")) {
                    return;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError(baseUrl + " did not get a healthy link to Redis within 60 s: " + last);
    }

    /** Both IT servers. */
    static void awaitBoth() throws Exception {
        await(LibertyServer.baseUrl());
        await(LibertyServer.secondBaseUrl());
    }
}
