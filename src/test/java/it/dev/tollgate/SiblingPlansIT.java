package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * Two CDI beans inheriting one method, each with its own type's {@code @RateLimited} ({@code
 * FreeTierGreeter}: {@code demo-free}, 2 per minute; {@code PaidTierGreeter}: {@code demo-paid}, 5 per
 * minute), on Liberty's CDI, whose interceptor sees a container subclass of each: the interceptor's plan
 * is kept per bean class and method, so the sibling called second does not get the first one's limit.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class SiblingPlansIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void siblingsInheritingOneMethodEachKeepTheirOwnTypesLimit() throws Exception {
        String client = "10.41.0.1";
        assertEquals(200, tier("free", client).statusCode());
        assertEquals(200, tier("free", client).statusCode());
        assertEquals(429, tier("free", client).statusCode(), "demo-free: 2 per minute");
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> r = tier("paid", client);
            assertEquals(200, r.statusCode(), "paid call " + i + ": demo-paid's 5, not demo-free's spent bucket");
            assertEquals("hello, paid tier\n", r.body());
        }
        assertEquals(429, tier("paid", client).statusCode(), "demo-paid: 5 per minute");
    }

    /** A raw GET with room for a cold server on a loaded machine (its first JAX-RS request). */
    private static HttpResponse<String> tier(String tier, String client) throws Exception {
        HttpRequest get = HttpRequest.newBuilder(URI.create(LibertyServer.baseUrl() + "/demo/tier/" + tier))
                .header("X-Forwarded-For", client)
                .timeout(Duration.ofSeconds(60))
                .GET()
                .build();
        return CLIENT.send(get, HttpResponse.BodyHandlers.ofString());
    }
}
