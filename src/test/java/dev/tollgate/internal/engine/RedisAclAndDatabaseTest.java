package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * A Redis that asks who is calling: an ACL user with a password, and a database number, given in {@code
 * tollgate.redis.url} as a user writes it. The default user stays open (for the test's own inspection),
 * so the connections' user name, not a passing check, proves the credentials were sent.
 */
class RedisAclAndDatabaseTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer("--user", "tollgate", "on", ">s3cret-pw", "~*", "&*", "+@all");

    @Test
    void anAclUserWithAPasswordDecidesInTheDatabaseTheUrlNames() {
        String url = "redis://tollgate:s3cret-pw@" + redis.host() + ":" + redis.port() + "/3";
        try (Engine tollgate = Engine.build(settings(url, "acl"))) {
            assertEquals(List.of(1L, 0L), List.of(remaining(tollgate), remaining(tollgate)));
            Decision denied = tollgate.check("acl", "k");
            assertFalse(denied.allowed());
            assertFalse(denied.degraded());
            try (Jedis admin = redis.admin()) {
                assertTrue(admin.clientList().contains("user=tollgate"), "Tollgate connected as the ACL user");
                assertEquals(0, admin.keys("tg:*").size(), "nothing in database 0");
                admin.select(3);
                assertEquals(1, admin.keys("tg:*").size(), "the bucket is in database 3");
            }
        }
    }

    @Test
    void aWrongPasswordDegradesEveryCheckAndNoLogLineCarriesIt() {
        String url = "redis://tollgate:wrong-pw-123@" + redis.host() + ":" + redis.port() + "/3";
        List<String> lines = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                lines.add(r.getMessage() + " " + (r.getThrown() == null ? "" : r.getThrown()));
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        Logger root = Logger.getLogger("dev.tollgate");
        root.addHandler(capture);
        try (Engine tollgate = Engine.build(settings(url, "acl-wrong"))) {
            for (int i = 0; i < 5; i++) {
                Decision d = tollgate.check("acl-wrong", "k");
                assertTrue(d.degraded(), "check " + i + ": Redis refused the credentials");
                assertTrue(d.allowed(), "fail-open by default");
            }
        } finally {
            root.removeHandler(capture);
        }
        assertTrue(lines.stream().noneMatch(l -> l.contains("wrong-pw-123")), lines.toString());
    }

    private static long remaining(Engine tollgate) {
        Decision d = tollgate.check("acl", "k");
        assertFalse(d.degraded(), "decided by Redis");
        return d.remaining();
    }

    /** A quota of 2 under {@code limit}, with a budget a loaded machine meets (the budget is not tested here). */
    private static dev.tollgate.internal.config.TollgateSettings settings(String url, String limit) {
        List<String> p = new ArrayList<>(List.of("tollgate.redis.url", url, "tollgate.redis.timeout", "2s"));
        p.addAll(List.of(TestSettings.quota(limit, 2)));
        return TestSettings.read(p.toArray(String[]::new));
    }
}
