package dev.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.config.PropertySource;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.testing.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Limits re-read from {@code tollgate.config.file} while Tollgate runs, on a real Redis: validated as at
 * deploy, swapped whole when valid, the old ones kept when not. The reloader is driven by calling its
 * look directly, not by waiting for its interval.
 */
class LimitsReloadTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @TempDir
    Path dir;

    private PropertySource source(Path file) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("tollgate.redis.url", redis.url());
        m.put("tollgate.config.file", file.toString());
        m.put("tollgate.limits.api.capacity", "2");
        m.put("tollgate.limits.api.refill-tokens", "1");
        m.put("tollgate.limits.api.refill-period", "1h");
        return PropertySource.of(m);
    }

    private static int admitted(Tollgate t, String client, int calls) {
        int n = 0;
        for (int i = 0; i < calls; i++) {
            n += t.check("api", client).allowed() ? 1 : 0;
        }
        return n;
    }

    @Test
    void theFileOutranksTheOtherSourcesAndAValidChangeAppliesWithoutARestart() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Tollgate t = Tollgate.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            assertEquals(3, admitted(t, "a", 10), "the file's capacity, not the properties'");
            Files.writeString(file, "tollgate.limits.api.capacity=6\ntollgate.limits.api.mode=enforce\n");
            t.reloader().look();
            assertEquals(6, t.limit("api").policy().capacity());
            assertTrue(log.contains("limits reloaded from " + file + ": 'api' (token-bucket capacity=3"), log.text());
            assertTrue(log.contains("-> (token-bucket capacity=6"), log.text());
            assertEquals(0, admitted(t, "a", 10), "a raised capacity adds no tokens to a spent bucket: it refills");
            assertEquals(6, admitted(t, "b", 10));
        }
    }

    @Test
    void anInvalidChangeKeepsTheLimitsInForceAndNamesEachProblem() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Tollgate t = Tollgate.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            Files.writeString(file, "tollgate.limits.api.capacity=lots\ntollgate.redis.timeout=1s\n");
            t.reloader().look();
            assertEquals(3, t.limit("api").policy().capacity());
            assertTrue(log.contains("changed, but the limits in force stay"), log.text());
            assertTrue(log.contains("tollgate.limits.api.capacity=lots (expected a whole number > 0)"), log.text());
            assertTrue(log.contains("tollgate.redis.timeout in tollgate.config.file=" + file), log.text());
            Files.writeString(file, "");
            t.reloader().look();
            assertEquals(2, t.limit("api").policy().capacity(), "an emptied file: the other sources' limits");
        }
    }

    @Test
    void aFileThatCannotBeReadFailsTheDeploymentWithItsName() {
        Path missing = dir.resolve("missing.properties");
        String e = assertThrows(TollgateConfigException.class, () -> SettingsReader.read(source(missing)))
                .getMessage();
        assertTrue(e.contains("tollgate.config.file=" + missing + " (cannot be read"), e);
        assertFalse(e.contains("null"), e);
    }

    /** What the reloader logs, while open. */
    private static final class Log extends java.util.logging.Handler implements AutoCloseable {
        private final java.util.logging.Logger logger =
                java.util.logging.Logger.getLogger(LimitsReloader.class.getName());
        private final StringBuilder text = new StringBuilder();

        Log() {
            logger.addHandler(this);
        }

        @Override
        public synchronized void publish(java.util.logging.LogRecord r) {
            text.append(r.getLevel()).append(' ').append(r.getMessage()).append('\n');
        }

        synchronized String text() {
            return text.toString();
        }

        boolean contains(String s) {
            return text().contains(s);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {
            logger.removeHandler(this);
        }
    }
}
