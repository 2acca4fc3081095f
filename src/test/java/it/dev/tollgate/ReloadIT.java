package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.testing.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.microshed.testing.SharedContainerConfig;
import org.microshed.testing.jupiter.MicroShedTest;

/**
 * A limit's capacity changed in {@code tollgate.config.file} while the first server serves traffic: the new
 * capacity applies within the interval (200 ms here), with no restart; an invalid change keeps it.
 */
@MicroShedTest
@SharedContainerConfig(DemoDeployment.class)
public class ReloadIT {

    @RegisterExtension
    static final RedisServer redis = DemoDeployment.redis;

    private static final Path FILE = Path.of(System.getProperty("it.limits.file"));

    private static int admitted(String client, int calls) throws Exception {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            n += LibertyServer.get("/demo/reload", "X-Forwarded-For", client).statusCode() == 200 ? 1 : 0;
        }
        return n;
    }

    private static void awaitLog(String text, long lines) throws Exception {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (LibertyServer.log().stream().skip(lines).anyMatch(l -> l.contains(text))) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the server never logged '" + text + "'");
    }

    @Test
    void aChangedCapacityAppliesWhileTheServerRunsAndAnInvalidOneIsRefused() throws Exception {
        RedisReady.awaitBoth();
        assertEquals(2, admitted("192.0.2.1", 6), "the properties' capacity");

        long lines = LibertyServer.log().size();
        Files.writeString(FILE, "tollgate.limits.demo-reload.capacity=5\n");
        awaitLog("limits reloaded from " + FILE, lines);
        assertTrue(
                LibertyServer.log().stream()
                        .anyMatch(l -> l.contains("'demo-reload' (token-bucket capacity=2")
                                && l.contains("-> (token-bucket capacity=5")),
                "one line: the diff");
        assertEquals(5, admitted("192.0.2.2", 8), "the file's capacity, no restart");

        lines = LibertyServer.log().size();
        Files.writeString(FILE, "tollgate.limits.demo-reload.capacity=many\n");
        awaitLog("changed, but the limits in force stay", lines);
        assertTrue(LibertyServer.log().stream()
                .skip(lines)
                .anyMatch(l -> l.contains("tollgate.limits.demo-reload.capacity=many")));
        assertEquals(5, admitted("192.0.2.3", 8), "the limits in force stay");
    }
}
