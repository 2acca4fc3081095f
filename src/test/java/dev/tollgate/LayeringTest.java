package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The decision core knows nothing of HTTP, CDI, MicroProfile or Jedis; the API package nothing of
 * Jedis or MicroProfile. Read from the compiled classes' constant pools, which name every type a
 * class uses.
 */
class LayeringTest {

    private static final Path CLASSES = Path.of("target", "classes", "dev", "tollgate");

    @Test
    void coreDependsOnNoFrameworkAndNoRedisClient() throws IOException {
        assertEquals(
                List.of(),
                offenders(
                        CLASSES.resolve("core"),
                        "jakarta/",
                        "org/eclipse/microprofile/",
                        "redis/clients/",
                        "dev/tollgate/redis/",
                        "dev/tollgate/cdi/",
                        "dev/tollgate/jaxrs/",
                        "dev/tollgate/guard/"));
    }

    @Test
    void memoryStoresDependOnNoFrameworkAndNoRedisClient() throws IOException {
        assertEquals(
                List.of(),
                offenders(CLASSES.resolve("memory"), "jakarta/", "org/eclipse/microprofile/", "redis/clients/"));
    }

    @Test
    void apiDependsOnNoRedisClientAndNoImplementation() throws IOException {
        try (Stream<Path> files = Files.list(CLASSES)) {
            List<String> bad = files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> references(
                            p,
                            "redis/clients/",
                            "org/eclipse/microprofile/",
                            "dev/tollgate/redis/",
                            "dev/tollgate/cdi/",
                            "dev/tollgate/jaxrs/"))
                    .map(p -> p.getFileName().toString())
                    .toList();
            assertEquals(List.of(), bad);
        }
    }

    private static List<String> offenders(Path dir, String... forbidden) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> references(p, forbidden))
                    .map(p -> dir.relativize(p).toString())
                    .toList();
        }
    }

    private static boolean references(Path classFile, String... forbidden) {
        try {
            String pool = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
            for (String f : forbidden) {
                if (pool.contains(f)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
