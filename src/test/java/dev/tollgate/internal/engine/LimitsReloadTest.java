package dev.tollgate.internal.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.DeploymentCheck;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.testing.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.List;
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

    private static final int ONE_MIB = 1 << 20;

    /** Two looks: one to see a new version, one to see it stayed the same. */
    private static void settle(Engine t) {
        t.reloader().look();
        t.reloader().look();
    }

    private static int admitted(Engine t, String client, int calls) {
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
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            assertEquals(3, admitted(t, "a", 10), "the file's capacity, not the properties'");
            Files.writeString(file, "tollgate.limits.api.capacity=6\ntollgate.limits.api.mode=enforce\n");
            settle(t);
            assertEquals(6, t.limit("api").policy().capacity());
            assertTrue(log.contains("limits reloaded from " + file + ": 'api' (token-bucket capacity=3"), log.text());
            assertTrue(log.contains("-> (token-bucket capacity=6"), log.text());
            assertEquals(0, admitted(t, "a", 10), "a raised capacity adds no tokens to a spent bucket: it refills");
            assertEquals(6, admitted(t, "b", 10));
        }
    }

    @Test
    void aClientCheckedBeforeAReloadIsDecidedUnderTheReloadedLimit() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=2\n");
        PropertySource source = source(file);
        try (Engine t =
                Engine.builder(SettingsReader.read(source)).reloadFrom(source).build()) {
            assertEquals(2, admitted(t, "hot", 5), "enforced: the bucket's two tokens, then denials");
            Files.writeString(file, "tollgate.limits.api.capacity=2\ntollgate.limits.api.mode=shadow\n");
            settle(t);
            // The same hot client of the same limit name: the limiter's memo of its check is of the limit
            // that was in force, and must not answer under the reloaded one (a shadow limit passes all).
            assertEquals(5, admitted(t, "hot", 5), "the reloaded limit is a shadow: every call passes");
        }
    }

    @Test
    void anInvalidChangeKeepsTheLimitsInForceAndNamesEachProblem() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            Files.writeString(file, "tollgate.limits.api.capacity=lots\ntollgate.redis.timeout=1s\n");
            settle(t);
            assertEquals(3, t.limit("api").policy().capacity());
            assertTrue(log.contains("changed, but the limits in force stay"), log.text());
            assertTrue(log.contains("tollgate.limits.api.capacity=lots (expected a whole number > 0)"), log.text());
            assertTrue(log.contains("tollgate.redis.timeout in tollgate.config.file=" + file), log.text());
        }
    }

    @Test
    void aChangeMadeBetweenTheDeploymentsReadAndTheReloadersStartIsApplied() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        var deployed = SettingsReader.read(source);
        Files.writeString(file, "tollgate.limits.api.capacity=4\n");
        try (Engine t = Engine.builder(deployed).reloadFrom(source).build();
                Log log = new Log()) {
            assertEquals(3, t.limit("api").policy().capacity());
            t.reloader().look();
            assertEquals(4, t.limit("api").policy().capacity(), "not taken for the version in force");
            t.reloader().look();
            assertEquals(1, log.count("limits reloaded"), log.text());
        }
    }

    @Test
    void anEmptiedFileIsRefusedAndTheLimitsInForceStay() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            Files.writeString(file, "");
            settle(t);
            settle(t);
            assertEquals(3, t.limit("api").policy().capacity(), "not the other sources' 2: the file's 3 stay");
            assertEquals(1, log.count("SEVERE"), log.text());
            assertTrue(
                    log.contains("tollgate.config.file=" + file + " (holds no tollgate.limits.* setting"), log.text());
            Files.writeString(file, "# only a comment\n");
            settle(t);
            assertEquals(3, t.limit("api").policy().capacity(), "a file of comments holds no limit either");
            assertEquals(2, log.count("SEVERE"), "one line per refused version: " + log.text());
        }
    }

    @Test
    void aFileOverTheSizeCapIsRefusedWhole() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            String big = "tollgate.limits.api.capacity=6\n#" + "x".repeat(ONE_MIB) + "\n";
            Files.writeString(file, big);
            settle(t);
            settle(t);
            assertEquals(3, t.limit("api").policy().capacity(), "the limits in force stay");
            assertEquals(1, log.count("SEVERE"), log.text());
            assertTrue(
                    log.contains("(is " + Files.size(file) + " bytes, over the cap of " + ONE_MIB + " bytes)"),
                    log.text());
            Files.writeString(file, "tollgate.limits.api.capacity=6\n#" + "x".repeat(ONE_MIB - 40) + "\n");
            settle(t);
            assertEquals(6, t.limit("api").policy().capacity(), "a file just under the cap is read");
        }
    }

    @Test
    void aHalfWrittenFileIsNeverApplied() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            // A writer that writes in two parts and pauses between them; the reloader looks during the pause.
            Files.writeString(file, "tollgate.limits.api.capacity=1");
            t.reloader().look();
            assertEquals(
                    3, t.limit("api").policy().capacity(), "the first part (a valid capacity of 1) is not a version");
            Files.writeString(file, "00\n", StandardOpenOption.APPEND);
            t.reloader().look();
            assertEquals(3, t.limit("api").policy().capacity(), "a look that finds it changed again waits");
            t.reloader().look();
            assertEquals(100, t.limit("api").policy().capacity(), "the whole file, once it stayed the same");
            assertEquals(1, log.count("limits reloaded"), log.text());
            assertFalse(log.contains("capacity=1 "), "capacity 1 was never in force: " + log.text());
        }
    }

    @Test
    void aFileThatNeverStaysTheSameIsReportedOnceAndNotApplied() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            for (int i = 0; i < 3 * LimitsReloader.STILL_CHANGING_LOOKS; i++) {
                Files.writeString(file, "tollgate.limits.api.capacity=" + (10 + i) + "\n");
                t.reloader().look();
            }
            assertEquals(3, t.limit("api").policy().capacity());
            assertEquals(1, log.count("SEVERE"), log.text());
            assertTrue(
                    log.contains("changed at each of " + LimitsReloader.STILL_CHANGING_LOOKS + " looks"), log.text());
            t.reloader().look();
            assertEquals(
                    10 + 3 * LimitsReloader.STILL_CHANGING_LOOKS - 1,
                    t.limit("api").policy().capacity());
        }
    }

    @Test
    void aDirectoryOrAMissingFileIsRefusedOnceAndASwappedSymbolicLinkIsFollowed() throws Exception {
        Path a = Files.writeString(dir.resolve("a.properties"), "tollgate.limits.api.capacity=3\n");
        Path b = Files.writeString(dir.resolve("b.properties"), "tollgate.limits.api.capacity=7\n");
        Path file = Files.createSymbolicLink(dir.resolve("limits.properties"), a);
        PropertySource source = source(file);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source)
                        .build();
                Log log = new Log()) {
            assertEquals(3, t.limit("api").policy().capacity());
            // A mounted ConfigMap's update: a new link renamed over the old one.
            Path next = Files.createSymbolicLink(dir.resolve("next"), b);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            settle(t);
            assertEquals(7, t.limit("api").policy().capacity(), "the link's new target");
            Files.delete(file);
            settle(t);
            settle(t);
            assertEquals(7, t.limit("api").policy().capacity(), "a missing file keeps the limits in force");
            assertTrue(
                    log.contains("tollgate.config.file=" + file + " (cannot be read: NoSuchFileException"), log.text());
            Files.createDirectory(file);
            settle(t);
            settle(t);
            assertEquals(7, t.limit("api").policy().capacity(), "a directory keeps the limits in force");
            assertTrue(log.contains("tollgate.config.file=" + file + " (is a directory, not a file)"), log.text());
            assertEquals(2, log.count("SEVERE"), "one line per refused version: " + log.text());
        }
    }

    @Test
    void aKeyThatNamesNoBeanIsRefusedByTheDeploymentsCheck() throws Exception {
        Path file = dir.resolve("limits.properties");
        Files.writeString(file, "tollgate.limits.api.capacity=3\n");
        PropertySource source = source(file);
        DeploymentCheck.Beans beans = new DeploymentCheck.Beans(List.of(), "tenantKeys"::equals);
        try (Engine t = Engine.builder(SettingsReader.read(source))
                        .reloadFrom(source, beans)
                        .build();
                Log log = new Log()) {
            Files.writeString(file, "tollgate.limits.api.capacity=5\ntollgate.limits.api.key=IP\n");
            settle(t);
            assertEquals(3, t.limit("api").policy().capacity(), "refused whole: the capacity of 5 with it");
            assertEquals(new KeySpec.Ip(), t.limit("api").key());
            String deployment = String.join("\n  ", DeploymentCheck.problems(source, beans));
            assertTrue(log.contains("limits in force stay, since:\n  " + deployment + "\n"), log.text());
            assertTrue(deployment.contains("tollgate.limits.api.key=IP (expected ip, principal, global,"), deployment);
            Files.writeString(file, "tollgate.limits.api.capacity=5\ntollgate.limits.api.key=tenantKeys\n");
            settle(t);
            assertEquals(new KeySpec.Bean("tenantKeys"), t.limit("api").key(), "a bean that exists");
            assertTrue(log.contains("key=ip mode=enforce fail-open=true) -> (token-bucket capacity=5"), log.text());
            assertTrue(log.contains("key=tenantKeys mode="), log.text());
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

        long count(String s) {
            return text().lines().filter(l -> l.contains(s)).count();
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
