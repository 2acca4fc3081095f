package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.ScanParams;

/**
 * Issue 22, finding 1, through the demo on Liberty and a real Redis: {@code demo-export-window} is a
 * sliding window of 2,000 (fail-open, the default), and one call takes at most 1,000 of it. 20 requests
 * claiming a cost of 1,001 ({@code @RateCost}) are each refused with a {@code 429} that can never pass,
 * by the JAX-RS filter and by the interceptor alike, and spend nothing: Redis is not even asked. Before,
 * the script refused the call with an error reply, the limit took it for a damaged key, and fail-open
 * admitted all 20.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class ImpossibleCostIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static DemoClient demo;

    private static final String DETAIL =
            "This call costs 1001, more than limit 'demo-export-window' takes in one call (1000): it can never pass";

    @Test
    void aCostAboveWhatASlidingWindowTakesInOneCallIsRefusedByTheFilterAndTheInterceptorAlike() throws Exception {
        String client = "10.0.22.1";
        List<Reply> filter = new ArrayList<>();
        List<Reply> interceptor = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            filter.add(Reply.of(demo.exportWindow(1001, client)));
            interceptor.add(Reply.of(demo.exportWindowCdi(1001, client)));
        }
        assertEquals(20, Load.count(filter, 429), "the filter: " + statuses(filter));
        assertEquals(20, Load.count(interceptor, 429), "the interceptor: " + statuses(interceptor));
        for (Reply r : List.of(filter.get(0), interceptor.get(0))) {
            assertTrue(r.body().contains(DETAIL), r.body());
            assertTrue(r.body().contains("\"status\":429"), r.body());
            assertFalse(r.header("Retry-After").isPresent(), "it can never pass");
        }
        assertEquals(filter.get(0).body(), interceptor.get(0).body(), "one answer from both adapters");
        assertEquals(
                filter.get(0).header("RateLimit-Policy"), interceptor.get(0).header("RateLimit-Policy"));
        assertEquals(Set.of(), windowKeys(), "nothing asked of Redis, nothing spent");

        Reply most = Reply.of(demo.exportWindow(1000, client));
        assertEquals(200, most.status(), "1,000 in one call is admitted");
        assertEquals(
                "\"demo-export-window\";r=1000",
                most.header("RateLimit").orElseThrow().replaceAll(";t=\\d+", ""));
        assertEquals(200, Reply.of(demo.exportWindowCdi(1000, client)).status(), "and 1,000 more, the window's 2,000");
        Reply full = Reply.of(demo.exportWindow(1, client));
        assertEquals(429, full.status(), "the window is spent");
        assertTrue(full.header("Retry-After").isPresent(), "this one can pass later");
    }

    private static List<Integer> statuses(List<Reply> replies) {
        return replies.stream().map(Reply::status).toList();
    }

    private static Set<String> windowKeys() {
        try (Jedis j = redis.admin()) {
            return Set.copyOf(j.scan(
                            ScanParams.SCAN_POINTER_START,
                            new ScanParams().match("*demo-export-window*").count(10_000))
                    .getResult());
        }
    }
}
