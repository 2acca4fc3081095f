package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Acquisition;
import dev.tollgate.LockHandle;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.RedisDistributedLock;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * The locks an operator sees and takes away through Liberty: a lock this test's JVM holds (as holder
 * {@value #HOLDER}) on the IT servers' Redis, listed and force-released over HTTP behind the admin role,
 * with one audit line; the old holder's token no longer holds it and the next holder's fencing token is higher.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class LockAdminIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    static final String HOLDER = "lock-admin-it";

    private static RedisLink link;
    private static RedisDistributedLock locks;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Duration.ofSeconds(5), 4));
        locks = RedisDistributedLock.using(GuardedRedis.unguarded(link), LockLostListener.NONE, HOLDER);
    }

    @BeforeEach
    void redisAnswers() throws Exception {
        RedisReady.awaitBoth();
    }

    @AfterAll
    static void close() {
        locks.close();
        link.close();
    }

    @Test
    void anOperatorListsAHeldLockAndForceReleasesItFromItsHolderOnly() throws Exception {
        String name = "lock-admin-it-" + System.nanoTime();
        LockHandle held = assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire(name, Duration.ofSeconds(60)))
                .lock();
        String path = "/tollgate/admin/locks";
        assertEquals(401, AdminHttp.send("GET", path, null).statusCode());
        assertEquals(403, AdminHttp.send("GET", path, AdminHttp.VIEWER).statusCode());
        HttpResponse<String> list = AdminHttp.send("GET", path, AdminHttp.OPERATOR);
        assertEquals(200, list.statusCode(), list.body());
        assertTrue(
                list.body()
                        .contains("{\"name\":\"" + name + "\",\"holder\":\"" + HOLDER + "\",\"fencingToken\":"
                                + held.fencingToken() + ",\"timeLeftMs\":"),
                list.body());
        assertFalse(Pattern.compile("[0-9a-f]{32}").matcher(list.body()).find(), "never a holder's secret token");

        String one = path + "/" + name;
        assertEquals(403, AdminHttp.send("DELETE", one, AdminHttp.VIEWER).statusCode());
        assertEquals(
                400,
                AdminHttp.send("DELETE", one + "?fencingToken=x", AdminHttp.OPERATOR)
                        .statusCode());
        assertEquals(
                400,
                AdminHttp.send("DELETE", path + "/a%20b", AdminHttp.OPERATOR).statusCode());
        HttpResponse<String> stale =
                AdminHttp.send("DELETE", one + "?fencingToken=" + (held.fencingToken() - 1), AdminHttp.OPERATOR);
        assertEquals(404, stale.statusCode(), "only the holder the operator saw: " + stale.body());
        assertTrue(held.extend(Duration.ofSeconds(60)), "still held");

        HttpResponse<String> released =
                AdminHttp.send("DELETE", one + "?fencingToken=" + held.fencingToken(), AdminHttp.OPERATOR);
        assertEquals(200, released.statusCode(), released.body());
        assertEquals("{\"lock\":\"" + name + "\",\"released\":true}", released.body());
        assertTrue(LibertyServer.log().stream()
                .anyMatch(l -> l.contains("Tollgate audit: operator force-released lock '" + name
                        + "' from the holder with fencing token " + held.fencingToken())));
        assertFalse(held.extend(Duration.ofSeconds(60)), "the old holder's token holds it no more");
        LockHandle next = assertInstanceOf(Acquisition.Acquired.class, locks.tryAcquire(name, Duration.ofSeconds(60)))
                .lock();
        assertTrue(next.fencingToken() > held.fencingToken());
        assertEquals(
                404,
                AdminHttp.send("DELETE", one + "?fencingToken=" + held.fencingToken(), AdminHttp.OPERATOR)
                        .statusCode());
        next.close();
        assertEquals(404, AdminHttp.send("DELETE", one, AdminHttp.OPERATOR).statusCode(), "nobody holds it");
    }

    @Test
    void theConsolesDataIsAnOperatorsOnly() throws Exception {
        String path = "/tollgate/admin/console";
        assertEquals(401, AdminHttp.send("GET", path, null).statusCode());
        assertEquals(403, AdminHttp.send("GET", path, AdminHttp.VIEWER).statusCode());
        HttpResponse<String> data = AdminHttp.send("GET", path, AdminHttp.OPERATOR);
        assertEquals(200, data.statusCode(), data.body());
        assertTrue(
                data.body().startsWith("{\"breaker\":{\"open\":false,\"authFailure\":null},\"outages\":["),
                data.body());
        assertTrue(data.body().contains(",\"deniedClients\":["), data.body());
        assertTrue(data.body().endsWith(",\"error\":null}}"), data.body());
    }
}
