package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * A Rest Client that paces itself ({@code @RegisterProvider(PacingFilter.class)}), from two servers at once:
 * both servers' loops call one partner, the demo's {@code GET /demo/pacing/partner} on the first server, which
 * takes bursts of 5 and then 5 calls per second for everyone, and announces it ({@code RateLimit-Policy:
 * "demo-partner-api";q=5;w=1}). Nobody told the callers that rate.
 */
@Alone
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class PacingIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final List<String> SERVERS = List.of(LibertyServer.baseUrl(), LibertyServer.secondBaseUrl());
    private static final HttpClient CLIENT = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .version(HttpClient.Version.HTTP_1_1)
            .build();

    /** Calls per server's loop. */
    private static final int CALLS = 10;

    /** The partner's burst and its calls per second. */
    private static final int PARTNER_RATE = 5;

    /** How much later than pacing at 9/10 of the partner's rate the loops may end (a loaded 2-core machine). */
    private static final long TOLERANCE_MS = 1500;

    /**
     * The most 429s the partner may send the paced loops: the two servers' first calls go before the partner's
     * first answer announced anything, and the bucket then starts full (5) while the partner's has spent them.
     * Each is waited out and retried: the callers never see it.
     */
    private static final long MOST_PARTNER_429S = 2;

    @BeforeEach
    void thePartnersBucketIsFull() throws Exception {
        RedisReady.awaitBoth();
        try (Jedis admin = redis.admin()) {
            admin.del(StoreKeys.DEFAULT.of("demo-partner-api", "*"));
        }
    }

    @Test
    @Order(1)
    void loopsThroughThePacingClientFromTwoServersGetNo429sAndRunAtThePartnersRate() throws Exception {
        long deniedBefore = partnerDenials();
        long sent = System.nanoTime();
        List<Loop> loops = both("/demo/pacing/paced?calls=" + CALLS);
        long partner429s = partnerDenials() - deniedBefore;
        long tookMs = (System.nanoTime() - sent) / 1_000_000;
        int total = 2 * CALLS;
        for (Loop l : loops) {
            assertEquals(Map.of(200, CALLS), l.statuses(), "every call answered 200, none 429: " + l);
        }
        long first = loops.stream().mapToLong(Loop::first).min().orElseThrow();
        long last = loops.stream().mapToLong(Loop::last).max().orElseThrow();
        long spanMs = (last - first) / 1000;
        // The partner admitted every call, so it saw its burst and then one call per 1/5 s at most.
        long fastest = (total - PARTNER_RATE) * 1000L / PARTNER_RATE;
        long paced = (total - PARTNER_RATE) * 1000L * 10 / 9 / PARTNER_RATE;
        System.out.println("pacing through Liberty: " + total + " calls from two servers, first to last answer "
                + spanMs + " ms (the partner's rate: " + fastest + " ms; paced at 9/10 of it: " + paced
                + " ms), all answered in " + tookMs + " ms, the partner answered " + partner429s + " 429s: " + loops);
        assertTrue(
                partner429s <= MOST_PARTNER_429S,
                "the partner answered " + partner429s
                        + " 429s: the callers paced by what it announced, not by its 429s");
        assertTrue(spanMs >= fastest - 250, "faster than the partner allows: " + spanMs + " ms");
        // From the first answer (a cold server's first call takes seconds on its own) to the last.
        assertTrue(
                spanMs <= paced + TOLERANCE_MS,
                "first to last answer " + spanMs + " ms, more than " + paced + " ms + " + TOLERANCE_MS + " ms");
    }

    /**
     * Second, on warm servers: cold, a server's first calls take so long that a loop alone keeps to the
     * partner's rate.
     */
    @Test
    @Order(2)
    void theSameLoopsWithoutThePacingClientCollect429s() throws Exception {
        List<Loop> loops = both("/demo/pacing/unpaced?calls=" + CALLS);
        int limited =
                loops.stream().mapToInt(l -> l.statuses().getOrDefault(429, 0)).sum();
        System.out.println("without pacing: " + loops);
        assertTrue(limited > 0, "no 429 without pacing: " + loops);
    }

    /** The partner's 429s so far: its limit's denials on the first server, where it runs. */
    private static long partnerDenials() {
        long sum = 0;
        for (String line : LibertyServer.metrics().split("\n")) {
            if (line.startsWith("tollgate_decisions_total{")
                    && line.contains("limit=\"demo-partner-api\"")
                    && line.contains("outcome=\"denied\"")) {
                sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return sum;
    }

    /** What one server's loop was answered: each status's count, its first and last answer (epoch us). */
    record Loop(Map<Integer, Integer> statuses, long first, long last) {
        static Loop parse(String body) {
            Map<Integer, Integer> statuses = new HashMap<>();
            long first = 0;
            long last = 0;
            for (String part : body.trim().split(" ")) {
                String[] kv = part.split("=");
                switch (kv[0]) {
                    case "first" -> first = Long.parseLong(kv[1]);
                    case "last" -> last = Long.parseLong(kv[1]);
                    default -> statuses.put(Integer.parseInt(kv[0]), Integer.parseInt(kv[1]));
                }
            }
            return new Loop(statuses, first, last);
        }
    }

    /** {@code path} on both servers at once. */
    private static List<Loop> both(String path) throws Exception {
        List<CompletableFuture<HttpResponse<String>>> calls = SERVERS.stream()
                .map(s -> CLIENT.sendAsync(
                        HttpRequest.newBuilder(URI.create(s + path))
                                .timeout(Duration.ofSeconds(60))
                                .GET()
                                .build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();
        return calls.stream()
                .map(CompletableFuture::join)
                .map(r -> {
                    assertEquals(200, r.statusCode(), r.body());
                    return Loop.parse(r.body());
                })
                .toList();
    }
}
