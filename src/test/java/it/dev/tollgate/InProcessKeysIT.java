package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Liberty server without {@code tollgate.redis.url} (limits in process) and the key modes a user
 * configures, each met through HTTP: {@code principal} (the signed-in user, {@code anonymous} for everyone
 * unauthenticated),
 * {@code global}, {@code header:<Name>} hashed whole, a {@code @RateKey} taken from the path, each key
 * normalised as its limit says ({@code key-normalize}) and refused when absurdly long (431 for a header,
 * 400 for a path), and {@code tollgate.http.limits} beside an annotation. Each limit's bucket says whose
 * it is by its {@code RateLimit} remaining count.
 */
@OwnServer
class InProcessKeysIT {

    static ExtraServer server;

    @BeforeAll
    static void start() throws Exception {
        server = ExtraServer.start(
                "inprocess",
                List.of(
                        "-Dtollgate.http.trusted-proxies=127.0.0.1/32",
                        "-Dtollgate.http.client-header=X-Forwarded-For",
                        "-Dtollgate.http.limits=site",
                        "-Dtollgate.limits.site.capacity=1000",
                        "-Dtollgate.limits.site.refill-tokens=0",
                        "-Dtollgate.limits.site.persist=true",
                        "-Dtollgate.limits.demo.capacity=3",
                        "-Dtollgate.limits.demo.refill-tokens=0",
                        "-Dtollgate.limits.demo.persist=true",
                        "-Dtollgate.limits.demo.key=principal",
                        "-Dtollgate.limits.demo-window.capacity=2",
                        "-Dtollgate.limits.demo-window.refill-period=1h",
                        "-Dtollgate.limits.demo-window.key=global",
                        "-Dtollgate.limits.demo-both.capacity=2",
                        "-Dtollgate.limits.demo-both.refill-tokens=0",
                        "-Dtollgate.limits.demo-both.persist=true",
                        "-Dtollgate.limits.demo-both.key=header:X-Api-Key",
                        "-Dtollgate.limits.demo-shadow.mode=enforce",
                        "-Dtollgate.limits.demo-shadow.capacity=2",
                        "-Dtollgate.limits.demo-shadow.refill-tokens=0",
                        "-Dtollgate.limits.demo-shadow.persist=true",
                        "-Dtollgate.limits.demo-shadow.key=header:X-Api-Key",
                        "-Dtollgate.limits.demo-shadow.key-normalize=nfc,trim,case-fold",
                        "-Dtollgate.limits.demo-user.capacity=1",
                        "-Dtollgate.limits.demo-user.refill-tokens=0",
                        "-Dtollgate.limits.demo-user.persist=true",
                        "-Dtollgate.limits.demo-user.key-normalize=nfc,trim,case-fold",
                        "-Dtollgate.limits.demo-ejb.capacity=100",
                        "-Dtollgate.limits.demo-ejb.refill-tokens=0",
                        "-Dtollgate.limits.demo-ejb.persist=true"),
                Map.of());
        assertTrue(server.started(), server.log());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void withoutARedisUrlTheLimitsAreKeptInProcess() throws Exception {
        assertTrue(
                server.log()
                        .lines()
                        .anyMatch(l -> l.contains("tollgate.redis.url is not set")
                                && l.contains("kept in this server's memory")),
                "the startup line says where limits are kept:\n" + tollgateLines());
    }

    @Test
    void anOperatorsPeekCreditOverrideAndBlockAnswer501InProcess() throws Exception {
        String operator = "Basic " + java.util.Base64.getEncoder().encodeToString("operator:tollgate-demo".getBytes());
        String base = "/tollgate/admin/limits/demo/";
        for (String[] request : new String[][] {
            {"GET", base + "peek?client=x"},
            {"GET", base + "rules?client=x"},
            {"PATCH", base + "clients?client=x&credit=1"},
            {"PUT", base + "override?client=x&capacity=5&refill-tokens=5&for=1m"},
            {"PUT", base + "block?client=x&for=1m"},
            {"DELETE", base + "block?client=x"}
        }) {
            HttpResponse<String> r = java.net.http.HttpClient.newHttpClient()
                    .send(
                            java.net.http.HttpRequest.newBuilder(java.net.URI.create(server.baseUrl() + request[1]))
                                    .method(request[0], java.net.http.HttpRequest.BodyPublishers.noBody())
                                    .header("Authorization", operator)
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            assertEquals(501, r.statusCode(), request[0] + " " + request[1] + ": " + r.body());
            assertTrue(r.body().contains("kept in this server's memory"), r.body());
        }
        HttpResponse<String> reset = java.net.http.HttpClient.newHttpClient()
                .send(
                        java.net.http.HttpRequest.newBuilder(
                                        java.net.URI.create(server.baseUrl() + base + "clients?client=x"))
                                .DELETE()
                                .header("Authorization", operator)
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, reset.statusCode(), "a reset works in process: " + reset.body());
    }

    /**
     * A decision made in this server's memory is counted, and not timed: {@code tollgate_check_seconds}
     * times checks that asked Redis (timing one that waits on nothing would cost more than deciding it).
     */
    @Test
    void aDecisionInProcessIsCountedAndNotTimed() throws Exception {
        assertEquals(200, status("/demo/unlimited", "X-Forwarded-For", "10.40.9.1"), "spends from 'site'");
        String metrics = server.get("/metrics?scope=application").body();
        List<String> site = metrics.lines()
                .filter(l -> l.startsWith("tollgate_") && l.contains("limit=\"site\""))
                .toList();
        assertTrue(
                site.stream().anyMatch(l -> l.startsWith("tollgate_decisions_total{") && l.contains("allowed")),
                "counted: " + site);
        assertTrue(site.stream().noneMatch(l -> l.startsWith("tollgate_check_seconds")), "not timed: " + site);
    }

    @Test
    void inProcessLimitHoldsExactlyUnderConcurrency() throws Exception {
        List<Reply> replies = Load.fire(400, 32, i -> server.baseUrl(), c -> c.ejb("10.40.0.1"));
        assertEquals(100, Load.count(replies, 200));
        assertEquals(300, Load.count(replies, 429));
    }

    @Test
    void principalKeysEveryAnonymousCallerIntoOneBucket() throws Exception {
        assertEquals(
                List.of(200, 200, 200, 429),
                List.of(
                        status("/demo/hello", "X-Forwarded-For", "10.40.1.1"),
                        status("/demo/hello", "X-Forwarded-For", "10.40.1.2"),
                        status("/demo/hello", "X-Forwarded-For", "10.40.1.3"),
                        status("/demo/hello", "X-Forwarded-For", "10.40.1.4")),
                "four addresses, one unauthenticated principal: anonymous");
    }

    @Test
    void anAuthenticatedCallerHasABucketOfItsOwnFromEveryAddress() throws Exception {
        String operator = basic("operator", "tollgate-demo");
        String viewer = basic("viewer", "viewer-demo");
        assertEquals(
                List.of(200, 200, 200, 429, 200),
                List.of(
                        status("/demo/hello", "X-Forwarded-For", "10.40.4.1", "Authorization", operator),
                        status("/demo/hello", "X-Forwarded-For", "10.40.4.2", "Authorization", operator),
                        status("/demo/hello", "X-Forwarded-For", "10.40.4.3", "Authorization", operator),
                        status("/demo/hello", "X-Forwarded-For", "10.40.4.4", "Authorization", operator),
                        status("/demo/hello", "X-Forwarded-For", "10.40.4.1", "Authorization", viewer)),
                "principal: the signed-in user's bucket (3), whatever the address; another user has their own");
    }

    private static String basic(String user, String password) {
        return "Basic "
                + java.util.Base64.getEncoder()
                        .encodeToString((user + ":" + password).getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void globalIsOneBucketForEveryone() throws Exception {
        assertEquals(
                List.of(200, 200, 429),
                List.of(
                        status("/demo/window", "X-Forwarded-For", "10.40.2.1"),
                        status("/demo/window", "X-Forwarded-For", "10.40.2.2"),
                        status("/demo/window", "X-Forwarded-For", "10.40.2.3")));
    }

    @Test
    void aHeaderKeyIsHashedWholeNotCut() throws Exception {
        String long512 = "k".repeat(512);
        assertEquals(
                List.of(200, 200, 200, 200, 429),
                List.of(
                        status("/demo/both", "X-Api-Key", long512 + "-first-tail" + "t".repeat(77)),
                        status("/demo/both", "X-Api-Key", long512 + "-another-tail" + "t".repeat(75)),
                        status("/demo/both", "X-Api-Key", long512),
                        status("/demo/both", "X-Api-Key", long512 + "-first-tail" + "t".repeat(77)),
                        status("/demo/both", "X-Api-Key", long512 + "-first-tail" + "t".repeat(77))),
                "600-character keys alike in their first 512 are two clients (capacity 2 each)");
    }

    @Test
    void aHeaderKeyIsOneClientWhateverItsCaseOnlyWhereTheLimitFoldsCase() throws Exception {
        assertEquals(
                List.of(200, 200, 429),
                List.of(
                        status("/demo/shadow", "X-Api-Key", "carol"),
                        status("/demo/shadow", "X-Api-Key", "Carol"),
                        status("/demo/shadow", "X-Api-Key", "CAROL")),
                "key-normalize=nfc,trim,case-fold: one bucket of 2");
        assertEquals(
                List.of(200, 200, 200),
                List.of(
                        status("/demo/both", "X-Api-Key", "dave"),
                        status("/demo/both", "X-Api-Key", "Dave"),
                        status("/demo/both", "X-Api-Key", "DAVE")),
                "the default keeps case: three buckets of 2, where one would have denied the third");
    }

    @Test
    void aPathKeyIsTrimmedAndFoldedWhereTheLimitSaysSo() throws Exception {
        assertEquals(
                List.of(200, 429, 429),
                List.of(status("/demo/user/Erin"), status("/demo/user/erin"), status("/demo/user/%20ERIN%20")),
                "a @RateKey from the path, key-normalize=nfc,trim,case-fold: one bucket of 1");
    }

    @Test
    void aKeyOverTheCapIs431FromAHeaderAnd400FromAPathAndSpendsNothing() throws Exception {
        String absurd = "k".repeat(8193);
        HttpResponse<String> header = server.get("/demo/both", "X-Api-Key", absurd);
        assertEquals(431, header.statusCode(), header.body());
        assertTrue(header.body().contains("8193 characters; at most 8192"), header.body());
        assertTrue(!header.body().contains("kkkk"), "the key is never echoed: " + header.body());
        HttpResponse<String> path = server.get("/demo/user/" + absurd);
        assertEquals(400, path.statusCode(), path.body());
        assertTrue(path.body().contains("limit 'demo-user'"), path.body());
        assertEquals(
                200,
                status("/demo/both", "X-Api-Key", "k".repeat(8192)),
                "a key of the cap's length is a client like any other");
    }

    @Test
    void theFilterSpendsItsGlobalLimitBesideTheAnnotatedOne() throws Exception {
        int before = remaining(server.get("/demo/unlimited", "X-Forwarded-For", "10.40.3.1"), "site");
        HttpResponse<String> both = server.get("/demo/window", "X-Forwarded-For", "10.40.3.1");
        int after = remaining(server.get("/demo/unlimited", "X-Forwarded-For", "10.40.3.1"), "site");
        // demo-window is one bucket for everyone here (2 per hour), which other tests may have spent: a
        // request it denies spends nothing from the filter's limit either (all or nothing).
        assertEquals(
                both.statusCode() == 429 ? before - 1 : before - 2,
                after,
                "the annotated request spent from the filter's limit too, unless denied (" + both.statusCode() + ")");
        assertTrue(
                both.headers().allValues("RateLimit-Policy").toString().contains("\"demo-window\"")
                        || both.statusCode() == 429,
                both.headers().map().toString());
    }

    private static int status(String path, String... headers) throws Exception {
        return server.get(path, headers).statusCode();
    }

    private static int remaining(HttpResponse<String> r, String limit) {
        for (String field : r.headers().allValues("RateLimit")) {
            for (String item : field.split(",")) {
                String t = item.trim();
                if (t.startsWith("\"" + limit + "\";r=")) {
                    String rest = t.substring(("\"" + limit + "\";r=").length());
                    return Integer.parseInt(rest.split(";")[0]);
                }
            }
        }
        throw new AssertionError(
                "no RateLimit item for " + limit + ": " + r.headers().map());
    }

    private static String tollgateLines() throws Exception {
        return String.join(
                "\n", server.log().lines().filter(l -> l.contains("Tollgate")).toList());
    }
}
