package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The house's rules, read from the compiled classes' constant pools (which name every type a class
 * uses): plain Java below, the CDI / JAX-RS / MicroProfile adapters in their own layer, no arrow back
 * up, no package cycle.
 */
class LayeringTest {

    private static final Path CLASSES = Path.of("target", "classes", "dev", "tollgate");
    private static final Pattern TOLLGATE_TYPE = Pattern.compile("dev/tollgate/([a-z]+)/[A-Z]");

    /** Plain Java: no Jakarta, no MicroProfile, and nothing of the adapters above them. */
    private static final List<String> PLAIN = List.of(
            "core", "config", "ratelimit", "concurrency", "http", "guard", "redis", "lock", "counter", "engine");

    private static final List<String> ADAPTERS = List.of("cdi", "jaxrs", "metrics", "health", "demo");

    @Test
    void plainPackagesUseNoFrameworkAndNoAdapter() {
        List<String> bad = new ArrayList<>();
        for (String pkg : PLAIN) {
            bad.addAll(offenders(
                    pkg,
                    "jakarta/",
                    "org/eclipse/microprofile/",
                    "dev/tollgate/cdi/",
                    "dev/tollgate/jaxrs/",
                    "dev/tollgate/metrics/",
                    "dev/tollgate/health/",
                    "dev/tollgate/demo/"));
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void decisionCoreAndConfigurationUseNoRedisClient() {
        List<String> bad = new ArrayList<>();
        for (String pkg : List.of("core", "config", "http", "guard")) {
            bad.addAll(offenders(pkg, "redis/clients/"));
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void apiDependsOnNoRedisClientAndNoImplementation() throws IOException {
        try (Stream<Path> files = Files.list(CLASSES)) {
            List<String> bad = files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> !tollgatePackages(p).isEmpty()
                            || references(p, "redis/clients/", "org/eclipse/microprofile/"))
                    .map(p -> p.getFileName().toString())
                    .toList();
            assertEquals(List.of(), bad);
        }
    }

    @Test
    void noPackageCycle() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (String pkg : packages()) {
            Set<String> targets = new TreeSet<>();
            for (Path c : classes(pkg)) {
                targets.addAll(tollgatePackages(c));
            }
            targets.remove(pkg);
            uses.put(pkg, targets);
        }
        List<String> cycles = new ArrayList<>();
        for (String from : uses.keySet()) {
            for (String to : uses.get(from)) {
                if (from.compareTo(to) < 0 && reaches(uses, to, from, new TreeSet<>())) {
                    cycles.add(from + " <-> " + to);
                }
            }
        }
        assertEquals(List.of(), cycles, "package imports: " + uses);
    }

    private static boolean reaches(Map<String, Set<String>> uses, String from, String target, Set<String> seen) {
        if (from.equals(target)) {
            return true;
        }
        if (!seen.add(from)) {
            return false;
        }
        for (String next : uses.getOrDefault(from, Set.of())) {
            if (reaches(uses, next, target, seen)) {
                return true;
            }
        }
        return false;
    }

    private static List<String> packages() throws IOException {
        try (Stream<Path> dirs = Files.list(CLASSES)) {
            return dirs.filter(Files::isDirectory)
                    .map(p -> p.getFileName().toString())
                    .sorted()
                    .toList();
        }
    }

    private static List<Path> classes(String pkg) {
        Path dir = CLASSES.resolve(pkg);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(p -> p.toString().endsWith(".class")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> offenders(String pkg, String... forbidden) {
        return classes(pkg).stream()
                .filter(p -> references(p, forbidden))
                .map(p -> pkg + "/" + p.getFileName())
                .toList();
    }

    private static Set<String> tollgatePackages(Path classFile) {
        Set<String> out = new TreeSet<>();
        Matcher m = TOLLGATE_TYPE.matcher(pool(classFile));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    private static boolean references(Path classFile, String... forbidden) {
        String pool = pool(classFile);
        for (String f : forbidden) {
            if (pool.contains(f)) {
                return true;
            }
        }
        return false;
    }

    private static String pool(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
