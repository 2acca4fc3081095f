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
 * uses): each package sits on a layer and uses only packages of lower layers, so no arrow runs back up
 * and no cycle can form. Bottom up: the API ({@code dev.tollgate}), the SPI ({@code dev.tollgate.spi}:
 * what users implement), the internals ({@code dev.tollgate.internal.*}, plain Java), then the adapters:
 * plain Java's facade ({@code engine}), MicroProfile Metrics and OpenTelemetry ({@code metrics}, {@code telemetry}), CDI, JAX-RS and MP Health, and the
 * demo. Only {@code internal.redis} sees Jedis; every package says its room in a {@code package-info.java}.
 */
class LayeringTest {

    private static final Path CLASSES = Path.of("target", "classes", "dev", "tollgate");
    private static final Path SOURCES = Path.of("src", "main", "java", "dev", "tollgate");
    private static final Pattern TOLLGATE_TYPE = Pattern.compile("dev/tollgate/((?:[a-z]+/)*)[A-Z]");
    private static final String API = "(api)";
    private static final String JEDIS = "redis/clients/";

    /** The layers, bottom up; a package may use only packages on lower layers. */
    private static final List<List<String>> LAYERS = List.of(
            List.of(API),
            List.of("spi"),
            List.of("internal/core", "internal/http"),
            List.of("internal/redis", "internal/guard"),
            List.of("internal/ratelimit", "internal/lock", "internal/counter"),
            List.of("internal/concurrency"),
            List.of("internal/config"),
            List.of("internal/engine"),
            List.of("engine"),
            List.of("metrics", "telemetry"),
            List.of("cdi"),
            List.of("jaxrs", "health", "restclient"),
            List.of("demo"));

    /**
     * The SPI, the internals and the plain-Java facade: no framework, no adapter. (The API's annotations
     * are interceptor bindings: they use the Jakarta annotations, and nothing else of a framework.)
     */
    private static final List<String> PLAIN = LAYERS.subList(1, LAYERS.indexOf(List.of("engine")) + 1).stream()
            .flatMap(List::stream)
            .toList();

    private static final String[] FRAMEWORKS = {"jakarta/", "javax/", "org/eclipse/microprofile/", "io/opentelemetry/"};
    private static final String[] ADAPTERS = {
        "dev/tollgate/metrics/",
        "dev/tollgate/telemetry/",
        "dev/tollgate/cdi/",
        "dev/tollgate/jaxrs/",
        "dev/tollgate/health/",
        "dev/tollgate/restclient/",
        "dev/tollgate/demo/"
    };

    @Test
    void everyPackageUsesOnlyLowerLayers() throws IOException {
        List<String> bad = new ArrayList<>();
        Map<String, Set<String>> uses = uses();
        for (Map.Entry<String, Set<String>> e : uses.entrySet()) {
            for (String used : e.getValue()) {
                if (layer(used) >= layer(e.getKey())) {
                    bad.add(e.getKey() + " -> " + used);
                }
            }
        }
        assertEquals(List.of(), bad, "package imports: " + uses);
    }

    @Test
    void everyPackageHasALayer() throws IOException {
        List<String> unplaced = packages().stream().filter(p -> layer(p) < 0).toList();
        assertEquals(List.of(), unplaced, "place each package on a layer of LAYERS");
    }

    @Test
    void everythingButTheApiTheSpiAndTheAdaptersIsInternal() throws IOException {
        List<String> outside = packages().stream()
                .filter(p -> !p.startsWith("internal/") && layer(p) > layer("spi") && layer(p) < layer("engine"))
                .toList();
        assertEquals(List.of(), outside);
        assertEquals(
                List.of(List.of("engine")),
                LAYERS.subList(
                        LAYERS.indexOf(List.of("internal/engine")) + 1,
                        LAYERS.indexOf(List.of("metrics", "telemetry"))));
    }

    @Test
    void plainPackagesUseNoFrameworkAndNoAdapter() {
        List<String> forbidden = new ArrayList<>(List.of(FRAMEWORKS));
        forbidden.addAll(List.of(ADAPTERS));
        List<String> bad = new ArrayList<>();
        for (String pkg : PLAIN) {
            bad.addAll(offenders(pkg, forbidden.toArray(String[]::new)));
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void onlyTheRedisPackageSeesJedis() throws IOException {
        List<String> bad = new ArrayList<>();
        for (String pkg : packages()) {
            if (!pkg.equals("internal/redis")) {
                bad.addAll(offenders(pkg, JEDIS));
            }
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void apiAndSpiUseNoRedisClientAndNoImplementation() {
        List<String> bad = new ArrayList<>();
        for (String pkg : List.of(API, "spi")) {
            classes(pkg).stream()
                    .filter(p -> !Set.of(API, "spi").containsAll(tollgatePackages(p))
                            || references(p, JEDIS, "org/eclipse/microprofile/"))
                    .map(p -> pkg + "/" + p.getFileName())
                    .forEach(bad::add);
        }
        assertEquals(List.of(), bad);
    }

    @Test
    void everyPackageSaysItsRoom() throws IOException {
        List<String> missing = packages().stream()
                .filter(p -> !Files.exists(source(p).resolve("package-info.java")))
                .toList();
        assertEquals(List.of(), missing);
    }

    private static int layer(String pkg) {
        for (int i = 0; i < LAYERS.size(); i++) {
            if (LAYERS.get(i).contains(pkg)) {
                return i;
            }
        }
        return -1;
    }

    private static Map<String, Set<String>> uses() throws IOException {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (String pkg : packages()) {
            Set<String> targets = new TreeSet<>();
            for (Path c : classes(pkg)) {
                targets.addAll(tollgatePackages(c));
            }
            targets.remove(pkg);
            uses.put(pkg, targets);
        }
        return uses;
    }

    /** Every folder below {@code dev/tollgate} that holds classes, as its path ({@link #API} for the root). */
    private static List<String> packages() throws IOException {
        try (Stream<Path> dirs = Files.walk(CLASSES)) {
            return dirs.filter(Files::isDirectory)
                    .filter(d -> !classesIn(d).isEmpty())
                    .map(d -> d.equals(CLASSES)
                            ? API
                            : CLASSES.relativize(d).toString().replace('\\', '/'))
                    .sorted()
                    .toList();
        }
    }

    private static Path source(String pkg) {
        return pkg.equals(API) ? SOURCES : SOURCES.resolve(pkg);
    }

    private static List<Path> classes(String pkg) {
        return classesIn(pkg.equals(API) ? CLASSES : CLASSES.resolve(pkg));
    }

    private static List<Path> classesIn(Path dir) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
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
            String path = m.group(1);
            out.add(path.isEmpty() ? API : path.substring(0, path.length() - 1));
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
