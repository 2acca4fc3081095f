package it.dev.tollgate;

import static it.dev.tollgate.AdminHttp.OPERATOR;
import static it.dev.tollgate.AdminHttp.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * An operator's credit, override and block over HTTP, through two real Liberty servers on one Redis:
 * set on the first server, applied by the second at once (the rules live in Redis beside the bucket),
 * behind the same role as the rest of the admin resource, each change one audit line with the client's
 * hash and never its key. Raw HTTP: the methods on the wire (PATCH, PUT, DELETE) are what is tested.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class ClientRulesIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    private static HttpResponse<String> operate(String method, String path) throws Exception {
        return send(LibertyServer.baseUrl(), method, "/tollgate/admin/limits/demo-user/" + path, OPERATOR);
    }

    private static int call(String base, String user) throws Exception {
        return send(base, "GET", "/demo/user/" + user, null).statusCode();
    }

    /** Calls {@code user}'s endpoint on {@code base} until it answers other than 429 (a held denial), up to 5 s. */
    private static int afterHeld(String base, String user) throws Exception {
        int status = 429;
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (status == 429 && System.nanoTime() < deadline) {
            status = call(base, user);
            Thread.sleep(status == 429 ? 50 : 0);
        }
        return status;
    }

    private static boolean audited(String line) throws Exception {
        return LibertyServer.log().stream().anyMatch(l -> l.contains(line));
    }

    @Test
    void aCreditOnOneServerLetsTheClientPassOnTheOther() throws Exception {
        String first = LibertyServer.baseUrl();
        String second = LibertyServer.secondBaseUrl();
        String user = "credit-" + System.nanoTime();
        for (int i = 0; i < 3; i++) {
            assertEquals(200, call(first, user));
        }
        assertEquals(429, call(second, user), "spent, and held on the second server now");
        HttpResponse<String> credit = operate("PATCH", "clients?client=" + user + "&credit=1");
        assertEquals(200, credit.statusCode(), credit.body());
        String hash = StoreKeys.clientHash(user);
        assertEquals("{\"limit\":\"demo-user\",\"client\":\"" + hash + "\",\"asked\":1,\"credited\":1}", credit.body());
        assertEquals(200, afterHeld(second, user), "the second server heard the credit and asked Redis");
        assertEquals(429, call(second, user), "one token credited, one spent");
        assertTrue(audited("Tollgate audit: operator credited limit 'demo-user' for client " + hash
                + ": 1 tokens asked, 1 given"));
        assertFalse(
                LibertyServer.log().stream().anyMatch(l -> l.contains("audit") && l.contains(user)), "never the key");
    }

    @Test
    void anOverrideSetOnOneServerIsAppliedByTheOther() throws Exception {
        String second = LibertyServer.secondBaseUrl();
        String user = "override-" + System.nanoTime();
        HttpResponse<String> set =
                operate("PUT", "override?client=" + user + "&capacity=6&refill-tokens=6&refill-period=1h&for=10m");
        assertEquals(200, set.statusCode(), set.body());
        String hash = StoreKeys.clientHash(user);
        assertTrue(
                set.body().contains("\"override\":{\"capacity\":6,\"refillTokens\":6,\"refillPeriodMs\":3600000"),
                set.body());
        for (int i = 0; i < 6; i++) {
            assertEquals(200, call(second, user), "call " + i + ": the override's 6, not the limit's 3");
        }
        HttpResponse<String> denied = send(second, "GET", "/demo/user/" + user, null);
        assertEquals(429, denied.statusCode());
        long retry = Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow());
        assertTrue(retry > 0 && retry <= 600, "a token in 10 min under the override, which ends then: " + retry);
        HttpResponse<String> rules = operate("GET", "rules?client=" + user);
        assertEquals(200, rules.statusCode(), rules.body());
        assertTrue(rules.body().contains("\"blockedForMs\":0,\"override\":{\"capacity\":6"), rules.body());
        assertTrue(audited("Tollgate audit: operator overrode limit 'demo-user' for client " + hash
                + ": capacity=6 refill-tokens=6 refill-period=1h for 10m"));

        HttpResponse<String> removed = operate("DELETE", "override?client=" + user);
        assertEquals("{\"limit\":\"demo-user\",\"client\":\"" + hash + "\",\"removed\":true}", removed.body());
        assertTrue(operate("GET", "rules?client=" + user).body().endsWith("\"override\":null}"));
        assertTrue(audited("Tollgate audit: operator removed the override of limit 'demo-user' for client " + hash));
    }

    @Test
    void aBlockDeniesOnEveryServerForItsRestUntilItIsLifted() throws Exception {
        String first = LibertyServer.baseUrl();
        String second = LibertyServer.secondBaseUrl();
        String user = "block-" + System.nanoTime();
        assertEquals(200, call(second, user));
        HttpResponse<String> block = operate("PUT", "block?client=" + user + "&for=2m");
        assertEquals(200, block.statusCode(), block.body());
        String hash = StoreKeys.clientHash(user);
        assertTrue(block.body().contains("\"blockedForMs\":120000"), block.body());
        for (String base : new String[] {first, second}) {
            HttpResponse<String> denied = send(base, "GET", "/demo/user/" + user, null);
            assertEquals(429, denied.statusCode(), base);
            long retry =
                    Long.parseLong(denied.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(retry > 100 && retry <= 120, "the rest of the block: " + retry);
        }
        assertTrue(audited("Tollgate audit: operator blocked limit 'demo-user' for client " + hash + " for 2m"));
        HttpResponse<String> lifted = operate("DELETE", "block?client=" + user);
        assertEquals("{\"limit\":\"demo-user\",\"client\":\"" + hash + "\",\"unblocked\":true}", lifted.body());
        assertEquals(200, afterHeld(second, user), "the second server heard the block end");
        assertEquals(200, call(second, user), "the block spent nothing: 2 of 3 after it");
        assertEquals(429, call(second, user));
        assertTrue(audited("Tollgate audit: operator unblocked limit 'demo-user' for client " + hash));
    }

    @Test
    void changesNeedTheRoleAndSayWhatIsWrong() throws Exception {
        String base = LibertyServer.baseUrl();
        String path = "/tollgate/admin/limits/demo-user/";
        assertEquals(
                401, send(base, "PUT", path + "block?client=x&for=1m", null).statusCode());
        assertEquals(
                403,
                send(base, "PUT", path + "block?client=x&for=1m", "viewer:viewer-demo")
                        .statusCode());
        assertEquals(
                403,
                send(base, "PATCH", path + "clients?client=x&credit=1", "viewer:viewer-demo")
                        .statusCode());
        assertEquals(
                403,
                send(base, "PUT", path + "override?client=x&capacity=1&for=1m", "viewer:viewer-demo")
                        .statusCode());
        assertEquals(
                403,
                send(base, "DELETE", path + "block?client=x", "viewer:viewer-demo")
                        .statusCode());
        HttpResponse<String> noDuration = operate("PUT", "block?client=x");
        assertEquals(400, noDuration.statusCode());
        assertTrue(noDuration.body().contains("for is required"), noDuration.body());
        assertEquals(400, operate("PATCH", "clients?client=x&credit=lots").statusCode());
        assertEquals(400, operate("PATCH", "clients?client=x&credit=0").statusCode());
        assertEquals(400, operate("PUT", "block?client=x&for=soon").statusCode());
        assertEquals(400, operate("PUT", "override?client=x&capacity=6&for=1m").statusCode(), "a bucket's refill");
        assertEquals(
                400,
                operate("PUT", "override?for=1m&capacity=1&refill-tokens=1").statusCode(),
                "no client");
        assertEquals(
                404,
                send(base, "PUT", "/tollgate/admin/limits/nope/block?client=x&for=1m", OPERATOR)
                        .statusCode());
        assertEquals(
                "{\"limit\":\"demo-user\",\"client\":\"" + StoreKeys.clientHash("x") + "\",\"blockedForMs\":0,"
                        + "\"override\":null}",
                operate("GET", "rules?client=x").body(),
                "nothing was set");
    }
}
