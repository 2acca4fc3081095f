package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The surface users touch, through a real Liberty server and a real Redis. The server trusts
 * 127.0.0.1 as a proxy, so each test picks its own bucket with X-Forwarded-For.
 */
class RateLimitIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    @Test
    void filterAdmitsExactlyTheCapacityUnderConcurrencyAndRejectsTheRestWithStandard429s() throws Exception {
        List<HttpResponse<String>> responses = fire("/demo/hello", "10.0.1.1", 1000, 32);
        List<HttpResponse<String>> ok =
                responses.stream().filter(r -> r.statusCode() == 200).toList();
        List<HttpResponse<String>> limited =
                responses.stream().filter(r -> r.statusCode() == 429).toList();
        assertEquals(100, ok.size());
        assertEquals(900, limited.size());
        for (HttpResponse<String> r : ok) {
            assertEquals(
                    "\"demo\";q=100", r.headers().firstValue("RateLimit-Policy").orElseThrow());
            assertTrue(r.headers().firstValue("RateLimit").orElseThrow().startsWith("\"demo\";r="));
        }
        for (HttpResponse<String> r : limited) {
            assertEquals("\"demo\";r=0", r.headers().firstValue("RateLimit").orElseThrow());
            assertEquals(
                    "\"demo\";q=100", r.headers().firstValue("RateLimit-Policy").orElseThrow());
            assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("application/problem+json"));
            assertTrue(r.body().contains("\"status\":429"), r.body());
            assertTrue(r.body().contains("quota-exceeded"), r.body());
            assertFalse(
                    r.headers().firstValue("Retry-After").isPresent(), "a quota that never refills has no retry time");
        }
    }

    @Test
    void refillingLimitSaysWhenToRetryAndNeverTooEarly() throws Exception {
        // demo-user: 3 per hour per user name, from the @RateKey parameter of an EJB method.
        for (int i = 0; i < 3; i++) {
            assertEquals(200, LibertyServer.get("/demo/user/ada").statusCode());
        }
        HttpResponse<String> r = LibertyServer.get("/demo/user/ada");
        assertEquals(429, r.statusCode());
        long retryAfter = Long.parseLong(r.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retryAfter >= 1199 && retryAfter <= 1200, "one token per 20 min, rounded up: " + retryAfter);
        assertEquals(
                "\"demo-user\";q=3;w=3600",
                r.headers().firstValue("RateLimit-Policy").orElseThrow());
        assertEquals(
                "\"demo-user\";r=0;t=" + retryAfter,
                r.headers().firstValue("RateLimit").orElseThrow());
        assertTrue(r.body().contains("\"retryAfter\":" + retryAfter), r.body());
        assertEquals(200, LibertyServer.get("/demo/user/grace").statusCode(), "another user, another bucket");
    }

    @Test
    void ejbLimitHoldsExactlyUnderConcurrency() throws Exception {
        assertExactlyCapacity("/demo/ejb", "demo-ejb", "10.0.2.1");
    }

    @Test
    void cdiBeanLimitHoldsExactlyUnderConcurrency() throws Exception {
        assertExactlyCapacity("/demo/cdi", "demo-cdi", "10.0.3.1");
    }

    /**
     * 400 requests, 32 in flight, against a 100-token quota: exactly 100 pass and 300 get the mapper's
     * 429. A check slower than the budget on a loaded machine is a degraded decision (fail-open), never
     * a silent one: such passes must show in the degraded counter, one for one.
     */
    private static void assertExactlyCapacity(String path, String limit, String client) throws Exception {
        long degradedBefore = LibertyServer.metric("tollgate_degraded_decisions_total", limit, "allowed");
        List<HttpResponse<String>> responses = fire(path, client, 400, 32);
        long degraded = LibertyServer.metric("tollgate_degraded_decisions_total", limit, "allowed") - degradedBefore;
        assertEquals(100 + degraded, count(responses, 200), degraded + " degraded decisions");
        assertEquals(300 - degraded, count(responses, 429), "the interceptor's rejection becomes the filter's 429");
        for (HttpResponse<String> r : responses) {
            if (r.statusCode() == 429) {
                assertTrue(r.body().contains("\"limit\":\"" + limit + "\""), r.body());
            }
        }
    }

    @Test
    void slidingWindowLimitHoldsExactlyThroughTheFilter() throws Exception {
        List<HttpResponse<String>> responses = fire("/demo/window", "10.0.6.1", 300, 32);
        assertEquals(100, count(responses, 200));
        HttpResponse<String> denied = responses.stream()
                .filter(r -> r.statusCode() == 429)
                .findFirst()
                .orElseThrow();
        assertEquals(
                "\"demo-window\";q=100;w=3600",
                denied.headers().firstValue("RateLimit-Policy").orElseThrow());
        assertTrue(Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow()) > 3500);
    }

    @Test
    void filterAndInterceptorOnOneMethodCountOnce() throws Exception {
        assertEquals(100, count(fire("/demo/both", "10.0.4.1", 300, 16), 200));
    }

    @Test
    void spoofedForwardedForFromAnUntrustedPeerDoesNotChangeTheBucket() throws Exception {
        // From 127.0.0.2, which is not a trusted proxy: every request spends from 127.0.0.2's bucket,
        // whatever address it claims to be forwarding for.
        int ok = 0;
        for (int i = 0; i < 101; i++) {
            ok += rawGetFrom("127.0.0.2", "/demo/hello", "10.66.0." + i) == 200 ? 1 : 0;
        }
        assertEquals(100, ok);
    }

    @Test
    void forwardedForFromATrustedProxyPicksTheClientsBucket() throws Exception {
        assertEquals(100, count(fire("/demo/hello", "10.0.5.1", 101, 4), 200));
        assertEquals(
                200,
                LibertyServer.get("/demo/hello", "X-Forwarded-For", "10.0.5.2").statusCode());
        assertEquals(
                429,
                LibertyServer.get("/demo/hello", "X-Forwarded-For", "10.0.5.1:4711")
                        .statusCode(),
                "the port is not part of the client");
    }

    @Test
    void unlimitedEndpointCarriesNoRateLimitFields() throws Exception {
        HttpResponse<String> r = LibertyServer.get("/demo/unlimited");
        assertEquals(200, r.statusCode());
        assertFalse(r.headers().firstValue("RateLimit").isPresent());
    }

    static long count(List<HttpResponse<String>> responses, int status) {
        return responses.stream().filter(r -> r.statusCode() == status).count();
    }

    static List<HttpResponse<String>> fire(String path, String client, int requests, int inFlight) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(inFlight);
        try {
            List<Future<HttpResponse<String>>> futures = new ArrayList<>();
            for (int i = 0; i < requests; i++) {
                futures.add(pool.submit(() -> LibertyServer.get(path, "X-Forwarded-For", client)));
            }
            List<HttpResponse<String>> out = new ArrayList<>();
            for (Future<HttpResponse<String>> f : futures) {
                out.add(f.get());
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    /** A GET sent from a chosen loopback address, which java.net.http cannot do. */
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
