package it.dev.tollgate;

import static it.dev.tollgate.AdminHttp.OPERATOR;
import static it.dev.tollgate.AdminHttp.VIEWER;
import static it.dev.tollgate.AdminHttp.send;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;
import redis.clients.jedis.Jedis;

/**
 * The operator's audit trail through Liberty (issue 22, finding 6): an allowed write, a read, a 401, a
 * 403, a 400 and a 404 each leave exactly one line on {@code dev.tollgate.audit} in the server's messages.log, with the
 * principal and never a password or a client key; a block lifted in Redis whose announcement to the
 * other servers then fails (PUBLISH refused by Redis's ACL) answers 503 and its line says what was done.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class AuditIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final String PASSWORD = "tollgate-demo";

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    /** The audit lines written by {@code call}: those the log gained while it ran. */
    private static List<String> audited(Call call) throws Exception {
        int before = LibertyServer.log().size();
        call.run();
        List<String> log = LibertyServer.log();
        return log.subList(before, log.size()).stream()
                .filter(l -> l.contains("Tollgate audit:"))
                .toList();
    }

    private interface Call {
        void run() throws Exception;
    }

    private static String only(List<String> lines) {
        assertEquals(1, lines.size(), "exactly one audit line: " + lines);
        assertFalse(lines.get(0).contains(PASSWORD), "never a password: " + lines.get(0));
        return lines.get(0);
    }

    @Test
    void anAllowedWriteAReadA401AndA403EachLeaveOneLine() throws Exception {
        String user = "audit-" + System.nanoTime();
        String hash = StoreKeys.clientHash(user);
        String reset = "/tollgate/admin/limits/demo-user/clients?client=" + user;
        String write = only(
                audited(() -> assertEquals(200, send("DELETE", reset, OPERATOR).statusCode())));
        assertTrue(
                write.contains("Tollgate audit: operator reset limit 'demo-user' for client " + hash
                        + " (it had no state) [DELETE /tollgate/admin/limits/demo-user/clients?client=" + hash
                        + " -> 200]"),
                write);
        assertFalse(write.contains(user), "never the client key: " + write);

        String read = only(audited(() ->
                assertEquals(200, send("GET", "/tollgate/admin/state", OPERATOR).statusCode())));
        assertTrue(read.contains("Tollgate audit: operator read [GET /tollgate/admin/state -> 200]"), read);

        String anonymous = only(audited(() ->
                assertEquals(401, send("GET", "/tollgate/admin/locks", null).statusCode())));
        assertTrue(
                anonymous.contains("Tollgate audit: anonymous was refused [GET /tollgate/admin/locks -> 401]"),
                anonymous);

        String viewer = only(
                audited(() -> assertEquals(403, send("DELETE", reset, VIEWER).statusCode())));
        assertTrue(
                viewer.contains("Tollgate audit: viewer was refused [DELETE /tollgate/admin/limits/demo-user/clients"
                        + "?client=" + hash + " -> 403]"),
                viewer);

        String bad = only(audited(() -> assertEquals(
                400,
                send(
                                "PATCH",
                                "/tollgate/admin/limits/demo-user/clients?client=" + user
                                        + "&credit=lots&password=hunter2",
                                OPERATOR)
                        .statusCode())));
        assertTrue(
                bad.contains(
                        "Tollgate audit: operator was refused (asked to credit limit 'demo-user' for client " + hash
                                + ") [PATCH /tollgate/admin/limits/demo-user/clients?client=" + hash
                                + "&credit=lots&password=... -> 400]"),
                bad);
        assertFalse(bad.contains("hunter2"), "only the resource's own parameters show their values: " + bad);

        String unknown = only(audited(() -> assertEquals(
                404, send("GET", "/tollgate/admin/nothing", OPERATOR).statusCode())));
        assertTrue(
                unknown.contains("Tollgate audit: operator was refused [GET /tollgate/admin/nothing -> 404]"), unknown);

        String page = only(audited(() ->
                assertEquals(200, send("GET", "/tollgate/console", OPERATOR).statusCode())));
        assertTrue(page.contains("Tollgate audit: operator read [GET /tollgate/console -> 200]"), page);
    }

    /**
     * The resources match a path with a matrix parameter as the plain one: the audit reads the path as they do (before, {@code /tollgate;v=1/admin/...} reset a client's limit unaudited).
     */
    @Test
    void aWriteByAPathTheResourcesMatchWithAMatrixParameterIsAuditedToo() throws Exception {
        String user = "audit-matrix-" + System.nanoTime();
        String hash = StoreKeys.clientHash(user);
        for (String prefix : List.of("/tollgate;v=1/admin", "/tollgate/admin;v=1")) {
            String reset = prefix + "/limits/demo-user/clients?client=" + user;
            String line = only(audited(
                    () -> assertEquals(200, send("DELETE", reset, OPERATOR).statusCode(), reset)));
            assertTrue(line.contains("Tollgate audit: operator reset limit 'demo-user' for client " + hash), line);
        }
    }

    @Test
    void aLiftedBlockWhoseAnnouncementFailedSaysSo() throws Exception {
        String user = "audit-publish-" + System.nanoTime();
        String hash = StoreKeys.clientHash(user);
        String block = "/tollgate/admin/limits/demo-user/block?client=" + user;
        assertEquals(200, send("PUT", block + "&for=2m", OPERATOR).statusCode());
        List<String> lines;
        try (Jedis admin = redis.admin()) {
            admin.aclSetUser("default", "-publish");
            try {
                lines = audited(() -> {
                    HttpResponse<String> lifted = send("DELETE", block, OPERATOR);
                    assertEquals(503, lifted.statusCode(), lifted.body());
                });
            } finally {
                admin.aclSetUser("default", "+publish");
            }
        }
        String line = only(lines);
        assertTrue(
                line.contains("Tollgate audit: operator asked to unblock limit 'demo-user' for client " + hash
                        + ", which failed: limit 'demo-user': the client's block was lifted in Redis, but telling"
                        + " the other servers failed"),
                line);
        assertTrue(line.endsWith(" [DELETE /tollgate/admin/limits/demo-user/block?client=" + hash + " -> 503]"), line);
        HttpResponse<String> rules = send("GET", "/tollgate/admin/limits/demo-user/rules?client=" + user, OPERATOR);
        assertTrue(rules.body().contains("\"blockedForMs\":0"), "lifted in Redis: " + rules.body());
    }
}
