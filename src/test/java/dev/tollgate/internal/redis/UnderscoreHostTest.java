package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.testing.ChildJvm;
import dev.tollgate.testing.RedisServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code redis://redis_cache:6379}, as compose files name services, reaches a real Redis. The name is
 * given to a child JVM through a hosts file, as a container's resolver would give it.
 */
class UnderscoreHostTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    @Test
    void aHostNameWithAnUnderscoreReachesRedis(@TempDir Path dir) throws Exception {
        Path hosts = dir.resolve("hosts");
        Files.writeString(hosts, "127.0.0.1 localhost redis_cache\n");
        List<String> out = ChildJvm.run(
                        List.of("-Djdk.net.hosts.file=" + hosts),
                        Child.class,
                        Duration.ofSeconds(30),
                        "redis://redis_cache:" + redis.port())
                .lines()
                .stream()
                .filter(l -> l.startsWith("result:"))
                .toList();
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
