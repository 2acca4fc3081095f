package it.dev.tollgate;

import static it.dev.tollgate.Load.count;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import jakarta.ws.rs.core.Response;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BiFunction;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * The surface users touch, through a real Liberty server and a real Redis. The server trusts
 * 127.0.0.1 as a proxy, so each test picks its own bucket with X-Forwarded-For.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class RateLimitIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    /** Both servers warm for a burst ({@link RedisReady#awaitBurstReady}): a cold pool is not what is counted. */
    @BeforeAll
    static void serversReady() throws Exception {
        RedisReady.awaitBurstReady();
    }

    @RESTClient
    public static DemoClient demo;

    @Test
    void filterAdmitsExactlyTheCapacityUnderConcurrencyAndRejectsTheRestWithStandard429s() throws Exception {
        List<Reply> responses = Undegraded.during("demo", () -> fire(DemoClient::helloFor, "10.0.1.1", 1000, 32));
        List<Reply> ok = responses.stream().filter(r -> r.status() == 200).toList();
        List<Reply> limited = responses.stream().filter(r -> r.status() == 429).toList();
        assertEquals(100, ok.size());
        assertEquals(900, limited.size());
        for (Reply r : ok) {
            assertEquals("\"demo\";q=100", r.header("RateLimit-Policy").orElseThrow());
            assertTrue(r.header("RateLimit").orElseThrow().startsWith("\"demo\";r="));
        }
        for (Reply r : limited) {
            assertEquals("\"demo\";r=0", r.header("RateLimit").orElseThrow());
            assertEquals("\"demo\";q=100", r.header("RateLimit-Policy").orElseThrow());
            assertTrue(r.header("Content-Type").orElseThrow().startsWith("application/problem+json"));
            assertTrue(r.body().contains("\"status\":429"), r.body());
            assertTrue(r.body().contains("quota-exceeded"), r.body());
            assertFalse(r.header("Retry-After").isPresent(), "a quota that never refills has no retry time");
        }
    }

    @Test
    void theHandWrittenBaselineIsOffUnlessTheDeploymentTurnsItOn() {
        assertEquals(404, demo.byHand().getStatus(), "demo.by-hand.enabled is false by default");
    }

    @Test
    void refillingLimitSaysWhenToRetryAndNeverTooEarly() throws Exception {
        // demo-user: 3 per hour per user name, from the @RateKey parameter of an EJB method.
        for (int i = 0; i < 3; i++) {
            assertEquals(200, Reply.of(demo.user("ada")).status());
        }
        Reply r = Reply.of(demo.user("ada"));
        assertEquals(429, r.status());
        long retryAfter = Long.parseLong(r.header("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1199 && retryAfter <= 1200, "one token per 20 min, rounded up: " + retryAfter);
        assertEquals("\"demo-user\";q=3;w=3600", r.header("RateLimit-Policy").orElseThrow());
        assertEquals("\"demo-user\";r=0;t=" + retryAfter, r.header("RateLimit").orElseThrow());
        assertTrue(r.body().contains("\"retryAfter\":" + retryAfter), r.body());
        assertEquals(200, Reply.of(demo.user("grace")).status(), "another user, another bucket");
    }

    @Test
    void ejbLimitHoldsExactlyUnderConcurrency() throws Exception {
        assertExactlyCapacity(DemoClient::ejb, "demo-ejb", "10.0.2.1");
    }

    @Test
    void cdiBeanLimitHoldsExactlyUnderConcurrency() throws Exception {
        assertExactlyCapacity(DemoClient::cdi, "demo-cdi", "10.0.3.1");
    }

    /**
     * 400 requests, 32 in flight, against a 100-token quota: exactly 100 pass and 300 get the mapper's
     * 429, every decision Redis's ({@link Undegraded}).
     */
    private static void assertExactlyCapacity(
            BiFunction<DemoClient, String, Response> endpoint, String limit, String client) throws Exception {
        List<Reply> responses = Undegraded.during(limit, () -> fire(endpoint, client, 400, 32));
        assertEquals(100, count(responses, 200));
        assertEquals(300, count(responses, 429), "the interceptor's rejection becomes the filter's 429");
        for (Reply r : responses) {
            if (r.status() == 429) {
                assertTrue(r.body().contains("\"limit\":\"" + limit + "\""), r.body());
            }
        }
    }

    @Test
    void slidingWindowLimitHoldsExactlyThroughTheFilter() throws Exception {
        List<Reply> responses = Undegraded.during("demo-window", () -> fire(DemoClient::window, "10.0.6.1", 300, 32));
        assertEquals(100, count(responses, 200));
        Reply denied =
                responses.stream().filter(r -> r.status() == 429).findFirst().orElseThrow();
        assertEquals(
                "\"demo-window\";q=100;w=3600",
                denied.header("RateLimit-Policy").orElseThrow());
        assertTrue(Long.parseLong(denied.header("Retry-After").orElseThrow()) > 3500);
    }

    @Test
    void filterAndInterceptorOnOneMethodCountOnce() throws Exception {
        assertEquals(
                100, count(Undegraded.during("demo-both", () -> fire(DemoClient::both, "10.0.4.1", 300, 16)), 200));
    }

    @Test
    void filterAndInterceptorOnOneAsynchronousMethodCountOnce() throws Exception {
        List<Reply> replies = Undegraded.during("demo-both", () -> fire(DemoClient::bothAsync, "10.0.4.2", 300, 16));
        assertEquals(100, count(replies, 200));
        assertTrue(
                replies.stream().filter(r -> r.status() == 200).allMatch(r -> r.header("RateLimit")
                        .isPresent()),
                "the fields are written when the answer comes, on its own thread");
    }

    /**
     * {@code GET /servlet/both} calls the same intercepted method from a servlet, outside any JAX-RS
     * request: the filter decided nothing there, so each call is charged, on whichever thread it runs,
     * even one that just served a {@code GET /demo/both} the filter marked. One after the other on one
     * connection (the server's threads are reused): 600 calls, 100 admitted.
     */
    @Test
    void aCallOutsideTheFiltersRequestIsChargedOnAThreadItMarked() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        int admitted = Undegraded.during("demo-both", () -> {
            int n = 0;
            for (int i = 0; i < 300; i++) {
                for (String path : List.of("/demo/both", "/servlet/both")) {
                    HttpRequest get = HttpRequest.newBuilder(URI.create(LibertyServer.baseUrl() + path))
                            .header("X-Forwarded-For", "10.0.4.3")
                            .build();
                    int status = client.send(get, HttpResponse.BodyHandlers.discarding())
                            .statusCode();
                    n += status == 200 ? 1 : 0;
                }
            }
            return n;
        });
        assertEquals(100, admitted);
    }

    @Test
    void spoofedForwardedForFromAnUntrustedPeerDoesNotChangeTheBucket() throws Exception {
        // From 127.0.0.2, which is not a trusted proxy: every request spends from 127.0.0.2's bucket,
        // whatever address it claims to be forwarding for.
        int ok = Undegraded.during("demo", () -> {
            int n = 0;
            for (int i = 0; i < 101; i++) {
                n += rawGetFrom("127.0.0.2", "/demo/hello", "10.66.0." + i) == 200 ? 1 : 0;
            }
            return n;
        });
        assertEquals(100, ok);
    }

    @Test
    void forwardedForFromATrustedProxyPicksTheClientsBucket() throws Exception {
        assertEquals(100, count(Undegraded.during("demo", () -> fire(DemoClient::helloFor, "10.0.5.1", 101, 4)), 200));
        assertEquals(200, Reply.of(demo.helloFor("10.0.5.2")).status());
        assertEquals(429, Reply.of(demo.helloFor("10.0.5.1:4711")).status(), "the port is not part of the client");
        // The IT servers' proxy writes X-Forwarded-For: a Forwarded header is the client's own, and not read.
        assertEquals(200, Reply.of(demo.helloForwarded("for=\"10.0.5.1:4711\"")).status());
    }

    @Test
    void unlimitedEndpointCarriesNoRateLimitFields() throws Exception {
        Reply r = Reply.of(demo.unlimited());
        assertEquals(200, r.status());
        assertFalse(r.header("RateLimit").isPresent());
    }

    /** {@code requests} calls of {@code endpoint} for {@code client}, at most {@code inFlight} outstanding. */
    static List<Reply> fire(
            BiFunction<DemoClient, String, Response> endpoint, String client, int requests, int inFlight)
            throws Exception {
        return Load.fire(requests, inFlight, c -> endpoint.apply(c, client));
    }

    /** A GET sent from a chosen loopback address, which no HTTP client API can do: raw bytes on a socket. */
    static int rawGetFrom(String localAddress, String path, String forwardedFor) throws Exception {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(localAddress), 0));
            s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getProperty("it.http.port"))), 5000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nX-Forwarded-For: " + forwardedFor
                            + "\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            return Integer.parseInt(status.split(" ")[1]);
        }
    }
}
