package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Whose bucket a request spends from, through Liberty, as real proxies and hostile clients send it. The
 * IT server trusts 127.0.0.1 as a proxy that writes {@code X-Forwarded-For}; 127.0.0.3 is an untrusted
 * peer. Each request's {@code RateLimit} field says how much is left in the bucket it spent from
 * ({@code demo}: 100, never refilled), so a falling count is one bucket and a full one a fresh bucket.
 * Every test uses its own addresses, so no other test's spending shows here.
 */
@SharedServers
class ClientIdentityIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final Pattern REMAINING = Pattern.compile("\"demo\";r=(\\d+)");

    /** The class before may have killed or frozen Redis: every count here must be Redis's. */
    @BeforeAll
    static void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    @Test
    void forwardedFromATrustedProxyIsNotReadWhenItWritesXForwardedFor() throws Exception {
        // nginx/ALB/Envoy pass a client's Forwarded header through untouched: it must not pick the bucket.
        assertOneBucket(
                undegraded(attempt -> {
                    List<Integer> left = new ArrayList<>();
                    for (int i = 1; i <= 3; i++) {
                        left.add(remaining(
                                "127.0.0.1", "X-Forwarded-For: 10.20.0." + attempt, "Forwarded: for=198.51.100." + i));
                    }
                    return left;
                }),
                "10.20.0.1");
    }

    @Test
    void haproxysSecondLineIsReadAfterTheClientsFirst() throws Exception {
        // HAProxy's option forwardedfor adds its own X-Forwarded-For line after the one the client sent.
        assertOneBucket(
                undegraded(attempt -> {
                    List<Integer> left = new ArrayList<>();
                    for (int i = 1; i <= 3; i++) {
                        left.add(remaining(
                                "127.0.0.1",
                                "X-Forwarded-For: 10.20.1." + i,
                                "X-Forwarded-For: 10.20.1." + (100 + attempt)));
                    }
                    return left;
                }),
                "10.20.1.101");
    }

    @Test
    void appendedToASpoofedValueTheRightmostUntrustedHopIsTheClient() throws Exception {
        assertOneBucket(
                undegraded(attempt -> {
                    List<Integer> left = new ArrayList<>();
                    for (int i = 1; i <= 3; i++) {
                        left.add(remaining(
                                "127.0.0.1",
                                "X-Forwarded-For: 10.20.2." + i + ", 127.0.0.1, 10.20.2." + (100 + attempt)));
                    }
                    return left;
                }),
                "10.20.2.101");
    }

    @Test
    void aPortOrBracketsDoNotMakeANewClient() throws Exception {
        assertOneBucket(
                undegraded(attempt -> List.of(
                        remaining("127.0.0.1", "X-Forwarded-For: 10.20.3." + attempt),
                        remaining("127.0.0.1", "X-Forwarded-For: 10.20.3." + attempt + ":51234"),
                        remaining("127.0.0.1", "X-Forwarded-For: ::ffff:10.20.3." + attempt),
                        remaining("127.0.0.1", "X-Forwarded-For: [::ffff:10.20.3." + attempt + "]:443"))),
                "10.20.3.1");
    }

    @Test
    void anUntrustedPeerSpendsFromItsOwnBucketWhateverItClaims() throws Exception {
        List<Integer> left = undegraded(attempt -> {
            List<Integer> out = new ArrayList<>();
            for (int i = 1; i <= 3; i++) {
                out.add(remaining(
                        "127.0.0.3",
                        "X-Forwarded-For: 10.20.4." + i,
                        "X-Forwarded-For: 10.20.4.1" + i,
                        "Forwarded: for=198.51.100." + i));
            }
            return out;
        });
        assertOneBucket(left, "127.0.0.3");
    }

    @Test
    void aHopTheProxyCouldNotNameIsKeyedApartFromTheProxy() throws Exception {
        // Garbage and unknown share the unknown bucket, never the proxy's own, which every such client would
        // otherwise share with the proxy's own calls. Spend the unknown bucket (demo: 100) to the end.
        int status = 0;
        for (int i = 0; i < 400 && status != 429; i++) {
            status = statusOf("127.0.0.1", "X-Forwarded-For: " + (i % 2 == 0 ? "localhost" : "unknown"));
        }
        assertEquals(429, status, "the unknown bucket ran out");
        assertEquals(429, statusOf("127.0.0.1", "X-Forwarded-For: 1a2b.bad.cafe"), "a name is unknown too");
        int proxysOwn = undegraded(attempt -> List.of(remaining("127.0.0.1"))).get(0);
        assertTrue(proxysOwn > 0, "the proxy's own bucket is another, decided by Redis: " + proxysOwn);
    }

    /**
     * One bucket, and which: each request left less than the one before (a fresh bucket per request would
     * not), and the bucket keyed by {@code client} (read back by the operator's peek) holds what the last
     * request left, so the requests spent from the client's bucket, not the proxy's.
     */
    static void assertOneBucket(List<Integer> left, String client) throws Exception {
        for (int i = 1; i < left.size(); i++) {
            assertTrue(left.get(i) < left.get(i - 1), "one bucket, spent by each request: " + left);
        }
        HttpResponse<String> peek =
                AdminHttp.send("GET", "/tollgate/admin/limits/demo/peek?client=" + client, AdminHttp.OPERATOR);
        assertEquals(200, peek.statusCode(), peek.body());
        Matcher m = Pattern.compile("\"remaining\":(\\d+)").matcher(peek.body());
        assertTrue(m.find(), peek.body());
        assertEquals(
                left.get(left.size() - 1),
                Integer.parseInt(m.group(1)),
                "the bucket of " + client + " is the one spent: " + left + ", " + peek.body());
    }

    /** A request's answer was decided without Redis (the machine was too slow for the budget). */
    static final class Degraded extends Exception {
        Degraded(String message) {
            super(message);
        }
    }

    interface Attempt {
        List<Integer> run(int attempt) throws Exception;
    }

    /**
     * The counts of one attempt, every request decided by Redis. A degraded answer (no {@code RateLimit}
     * field) says nothing about buckets; the IT servers' budget (2 s) is one a loaded machine meets, so
     * one fails the test ({@link Undegraded}'s policy), never a retry until the counts come out right.
     */
    static List<Integer> undegraded(Attempt attempt) throws Exception {
        try {
            return attempt.run(1);
        } catch (Degraded e) {
            throw new AssertionError(e.getMessage() + " (Redis missed the IT servers' 2 s budget)", e);
        }
    }

    /** The status of one GET /demo/hello sent from {@code local} with these header lines. */
    static int statusOf(String local, String... headerLines) throws Exception {
        return Integer.parseInt(exchange(local, headerLines)[0]);
    }

    /** The {@code RateLimit} remaining of one GET /demo/hello sent from {@code local} with these header lines. */
    static int remaining(String local, String... headerLines) throws Exception {
        String[] answer = exchange(local, headerLines);
        assertEquals("200", answer[0], "GET /demo/hello with " + List.of(headerLines));
        Matcher m = REMAINING.matcher(String.valueOf(answer[1]));
        if (!m.find()) {
            throw new Degraded("no RateLimit field for demo: a degraded pass");
        }
        return Integer.parseInt(m.group(1));
    }

    /** {status, RateLimit field or null} of one GET /demo/hello sent from {@code local}. */
    static String[] exchange(String local, String... headerLines) throws Exception {
        String rateLimit = null;
        int status;
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(local), 0));
            s.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(System.getProperty("it.http.port"))), 5000);
            s.setSoTimeout(60_000); // a first request to a cold server on a loaded machine
            StringBuilder request = new StringBuilder("GET /demo/hello HTTP/1.1\r\nHost: localhost\r\n");
            for (String line : headerLines) {
                request.append(line).append("\r\n");
            }
            request.append("Connection: close\r\n\r\n");
            OutputStream out = s.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();
            BufferedReader in =
                    new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            status = Integer.parseInt(in.readLine().split(" ")[1]);
            for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine()) {
                if (line.regionMatches(true, 0, "RateLimit:", 0, 10)) {
                    rateLimit = line;
                }
            }
        }
        return new String[] {Integer.toString(status), rateLimit};
    }
}
