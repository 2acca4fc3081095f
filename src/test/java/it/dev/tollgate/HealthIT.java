package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class HealthIT {

    @RegisterExtension
    static final RedisServer redis = RedisServer.onPort(LibertyServer.redisPort());

    @Test
    void healthIsUpAndReportsTheRedisStore() throws Exception {
        HttpResponse<String> r = LibertyServer.get("/health");
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"status\":\"UP\""), r.body());
        assertTrue(r.body().contains("\"store\":\"redis\""), r.body());
        assertTrue(r.body().contains("\"redisReachable\":true"), r.body());
    }

    @Test
    void readinessStaysUpWhileRedisIsDown() throws Exception {
        redis.kill();
        try {
            HttpResponse<String> r = LibertyServer.get("/health/ready");
            assertEquals(200, r.statusCode(), r.body());
            assertTrue(r.body().contains("\"redisReachable\":false"), r.body());
        } finally {
            redis.restart();
        }
    }

    @Test
    void demoServiceAnswers() throws Exception {
        HttpResponse<String> r = LibertyServer.get("/demo/hello");
        assertEquals(200, r.statusCode());
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
