package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo WAR deployed on a second Liberty server with bad settings: the deployment fails, and the
 * one message names every bad property and its value.
 */
class BadConfigIT {

    static final Path WLP = Path.of("target", "liberty", "wlp");
    static final String SERVER = "badconfig";
    static String log;

    @BeforeAll
    static void deployWithBadSettings() throws Exception {
        Path dir = WLP.resolve("usr/servers/" + SERVER);
        if (!Files.isDirectory(dir)) {
            run("create", SERVER);
        }
        Files.copy(
                Path.of("src/main/liberty/config/server.xml"),
                dir.resolve("server.xml"),
                StandardCopyOption.REPLACE_EXISTING);
        Files.createDirectories(dir.resolve("apps"));
        Files.copy(
                Path.of("target/tollgate.war"), dir.resolve("apps/tollgate.war"), StandardCopyOption.REPLACE_EXISTING);
        Files.writeString(
                dir.resolve("bootstrap.properties"), "http.port=" + freePort() + "\nhttps.port=" + freePort() + "\n");
        Files.write(
                dir.resolve("jvm.options"),
                List.of(
                        "-Dtollgate.limits.demo.capacity=lots",
                        "-Dtollgate.limits.extra.capacity=5",
                        "-Dtollgate.limits.demo-user.cost=9",
                        "-Dtollgate.limits.demo-ejb.capcity=5",
                        "-Dtollgate.http.limits=demo,ghost",
                        "-Dtollgate.redis.url=http://127.0.0.1:6379",
                        "-Dtollgate.locks.demo-report.ttl=forever"));
        Path messages = dir.resolve("logs/messages.log");
        Files.deleteIfExists(messages);
        run("start", SERVER);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            log = Files.exists(messages) ? Files.readString(messages) : "";
            if (log.contains("CWWKZ0002E") || log.contains("CWWKZ0001I")) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("the application neither started nor failed within 120 s:\n" + log);
    }

    @AfterAll
    static void stop() throws Exception {
        run("stop", SERVER);
    }

    @Test
    void deploymentFails() {
        assertTrue(log.contains("CWWKZ0002E"), log);
        assertFalse(log.contains("CWWKZ0001I: Application tollgate started"), "the application must not start");
    }

    @Test
    void badValueIsNamedWithTheValue() {
        assertTrue(log.contains("tollgate.limits.demo.capacity=lots (expected a whole number > 0)"), log);
    }

    @Test
    void missingRequiredPropertyIsNamed() {
        assertTrue(log.contains("tollgate.limits.extra.refill-tokens is required"), log);
    }

    @Test
    void costAboveCapacityIsNamed() {
        assertTrue(
                log.contains("tollgate.limits.demo-user.cost=9 (expected a whole number from 1 to the capacity (3)"),
                log);
    }

    @Test
    void misspelledSettingIsNamed() {
        assertTrue(log.contains("tollgate.limits.demo-ejb.capcity (unknown setting 'capcity'"), log);
        assertFalse(log.contains("capcity=5"), "an unknown name's value is not shown: it may be a password");
    }

    @Test
    void unknownLimitInTheFilterSettingIsNamed() {
        assertTrue(log.contains("tollgate.http.limits=demo,ghost (expected no limit named 'ghost' is configured"), log);
        assertFalse(log.contains("no limit named 'demo'"), "demo is defined, if badly: reported once, on its own");
    }

    @Test
    void badRedisUrlIsNamed() {
        assertTrue(log.contains("tollgate.redis.url=http://127.0.0.1:6379 (expected redis://"), log);
    }

    @Test
    void badLockOverrideIsNamed() {
        assertTrue(log.contains("tollgate.locks.demo-report.ttl=forever (expected a duration such as"), log);
    }

    private static void run(String... args) throws IOException, InterruptedException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = WLP.resolve("bin/server").toString();
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("server " + String.join(" ", args) + " did not finish in 120 s");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
