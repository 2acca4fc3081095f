package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;

@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
@SharedServers
public class HealthIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static HealthClient health;

    @RESTClient
    public static DemoClient demo;

    /**
     * Anonymous callers learn up or down, nothing else: readiness once showed them which store serves,
     * whether Redis answered a PING, the breaker and Redis's own error text for refused credentials (when
     * an attack works, and how the servers are built). The operator resource still says so.
     */
    @Test
    void readinessTellsAnonymousCallersOnlyUpOrDown() throws Exception {
        for (Reply r : List.of(Reply.of(health.all()), Reply.of(health.ready()))) {
            assertEquals(200, r.status(), r.body());
            assertOnlyUp(r.body());
        }
        HttpResponse<String> state = AdminHttp.send("GET", "/tollgate/admin/state", AdminHttp.OPERATOR);
        assertTrue(state.body().contains("\"store\":\"redis\""), state.body());
        assertTrue(state.body().contains("\"breakerOpen\":"), state.body());
    }

    @Test
    void readinessStaysUpWhileRedisIsDownAndSaysNothingMore() throws Exception {
        redis.kill();
        try {
            for (int i = 0; i < 5; i++) {
                Reply.of(demo.helloFor("10.0.77." + i)); // degraded decisions, the breaker opens
            }
            Reply r = Reply.of(health.ready());
            assertEquals(200, r.status(), r.body());
            assertOnlyUp(r.body());
        } finally {
            redis.restart();
            RedisReady.awaitBoth(); // the next class finds both servers' breakers closed again
        }
    }

    /** MicroProfile Health's status and one check's name and status; its data (always written) empty. */
    private static void assertOnlyUp(String body) {
        String compact = body.replaceAll("\\s", "");
        assertTrue(compact.startsWith("{\"status\":\"UP\""), body);
        assertTrue(compact.contains("{\"name\":\"tollgate\",\"status\":\"UP\""), body);
        assertFalse(compact.contains("\"data\":{\""), "data shown to an anonymous caller: " + body);
        for (String word : List.of("store", "redis", "Redis", "breaker", "Auth", "Reachable", "refused")) {
            assertFalse(compact.contains(word), word + " shown to an anonymous caller: " + body);
        }
    }

    @Test
    void demoServiceAnswers() {
        Reply r = Reply.of(demo.hello());
        assertEquals(200, r.status());
        assertEquals("hello\n", r.body());
    }

    @Test
    void settingsAreLoggedOnceAtStartup() throws Exception {
        long lines = LibertyServer.log().stream()
                .filter(l -> l.contains("Tollgate: limits, locks and counters are shared through Redis"))
                .count();
        assertEquals(1, lines);
    }
}
