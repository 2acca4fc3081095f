package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jaxrs.RESTClient;
import org.microshed.testing.jupiter.MicroShedTest;

@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
public class HealthIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    @RESTClient
    public static HealthClient health;

    @RESTClient
    public static DemoClient demo;

    @Test
    void healthIsUpAndReportsTheRedisStore() {
        Reply r = Reply.of(health.all());
        assertEquals(200, r.status(), r.body());
        assertTrue(r.body().contains("\"status\":\"UP\""), r.body());
        assertTrue(r.body().contains("\"store\":\"redis\""), r.body());
        assertTrue(r.body().contains("\"redisReachable\":true"), r.body());
    }

    @Test
    void readinessStaysUpWhileRedisIsDown() throws Exception {
        redis.kill();
        try {
            Reply r = Reply.of(health.ready());
            assertEquals(200, r.status(), r.body());
            assertTrue(r.body().contains("\"redisReachable\":false"), r.body());
        } finally {
            redis.restart();
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
