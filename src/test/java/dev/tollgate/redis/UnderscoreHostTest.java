package dev.tollgate.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.RedisServer;
import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code redis://redis_cache:6379}, as compose files name services, reaches a real Redis. The name is
 * given to a child JVM through a hosts file, as a container's resolver would give it.
 */
class UnderscoreHostTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    @Test
    void aHostNameWithAnUnderscoreReachesRedis(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "127.0.0.1 localhost redis_cache\n");
        Process p = new ProcessBuilder(
                        System.getProperty("java.home") + File.separator + "bin" + File.separator + "java",
                        "-Djdk.net.hosts.file=" + hosts,
                        "-cp",
                        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                        Child.class.getName(),
                        "redis://redis_cache:" + redis.port())
                .redirectErrorStream(true)
                .start();
        List<String> out;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            out = r.lines().filter(l -> l.startsWith("result:")).toList();
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
        }
        assertEquals(List.of("result: redis://redis_cache:" + redis.port() + " answers PING: true"), out);
    }

    /** Runs in the child JVM. */
    public static final class Child {
        public static void main(String[] args) {
            String result;
            try (RedisLink link = RedisClients.create(RedisSettings.of(args[0], Duration.ofSeconds(2), 1))) {
                result = link.description() + " answers PING: " + link.ping();
            } catch (RuntimeException e) {
                result = e.toString();
            }
            System.out.println("result: " + result);
        }
    }
}
