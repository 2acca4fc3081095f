package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * Through both Liberty servers: {@code @RateLimited} on a JAX-RS resource class limits every method of it
 * ({@code demo-class}, 3 per minute per client address), a method's own annotation replaces the class's,
 * and a {@code KeyResolver} CDI bean named in {@code key=} chooses the bucket ({@code demo-tenant}, keyed
 * by the {@code demo-tenants} bean: the tenant in the {@code X-User} header).
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class ClassAndResolverKeysIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final HttpClient CLIENT =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void aClassLevelLimitCoversEveryMethodOfTheResource() throws Exception {
        String client = "10.42.0.1";
        List<Integer> statuses = new ArrayList<>();
        List<String> remaining = new ArrayList<>();
        for (String path : List.of("/demo/class/a", "/demo/class/b", "/demo/class/a", "/demo/class/b")) {
            HttpResponse<String> r = get(LibertyServer.baseUrl(), path, "X-Forwarded-For", client);
            statuses.add(r.statusCode());
            remaining.add(r.headers().firstValue("RateLimit").orElse("none"));
        }
        assertEquals(List.of(200, 200, 200, 429), statuses, "a and b spend from one bucket: " + remaining);
        assertEquals(
                List.of("\"demo-class\";r=2;t=20", "\"demo-class\";r=1;t=40", "\"demo-class\";r=0;t=60"),
                remaining.subList(0, 3).stream()
                        .map(ClassAndResolverKeysIT::roundedT)
                        .toList());
        HttpResponse<String> denied = get(LibertyServer.secondBaseUrl(), "/demo/class/a", "X-Forwarded-For", client);
        assertEquals(429, denied.statusCode(), "the other server sees the same bucket");
        assertTrue(denied.body().contains("\"limit\":\"demo-class\""), denied.body());
    }

    @Test
    void aMethodsOwnLimitReplacesTheClasss() throws Exception {
        String client = "10.42.0.2";
        HttpResponse<String> own =
                get(LibertyServer.baseUrl(), "/demo/class/tenant", "X-Forwarded-For", client, "X-User", "ann@initech");
        assertEquals(200, own.statusCode());
        assertEquals(
                List.of("\"demo-tenant\";q=3;w=60"),
                own.headers().allValues("RateLimit-Policy"),
                "the method's limit, not the class's beside it");
        HttpResponse<String> a = get(LibertyServer.baseUrl(), "/demo/class/a", "X-Forwarded-For", client);
        assertTrue(
                a.headers().firstValue("RateLimit").orElse("").startsWith("\"demo-class\";r=2;"),
                "nothing was spent from demo-class: " + a.headers().map());
    }

    @Test
    void aKeyResolverBeanChoosesTheBucket() throws Exception {
        List<Integer> acme = new ArrayList<>();
        String[] users = {"alice@acme", "bob@acme", "carol@acme", "dave@acme"};
        for (int i = 0; i < users.length; i++) {
            // Every user from an address of their own, half of them on each server: one tenant, one bucket.
            String server = i % 2 == 0 ? LibertyServer.baseUrl() : LibertyServer.secondBaseUrl();
            acme.add(get(server, "/demo/class/tenant", "X-Forwarded-For", "10.42.1." + i, "X-User", users[i])
                    .statusCode());
        }
        assertEquals(List.of(200, 200, 200, 429), acme, "demo-tenant: 3 per minute for all of acme");
        assertEquals(
                200,
                get(
                                LibertyServer.baseUrl(),
                                "/demo/class/tenant",
                                "X-Forwarded-For",
                                "10.42.1.0",
                                "X-User",
                                "erin@globex")
                        .statusCode(),
                "another tenant, from an address acme used: a bucket of its own");
    }

    /** {@code t} rounded to tens of seconds: the refill of one token takes 20 s, of which a loaded machine spends some. */
    private static String roundedT(String field) {
        int t = field.lastIndexOf(";t=");
        if (t < 0) {
            return field;
        }
        long seconds = Long.parseLong(field.substring(t + 3));
        return field.substring(0, t) + ";t=" + Math.round(seconds / 20.0) * 20;
    }

    private static HttpResponse<String> get(String base, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
