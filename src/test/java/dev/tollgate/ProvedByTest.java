package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;

/**
 * The documentation's claims point at the tests that prove them, and those tests exist: every bullet of
 * "Guarantees and limits" ({@code src/site/markdown/guarantees.md}) ends with a {@code Proved by} list,
 * every row of "What proves each promise" (the same page) names tests, and every test named there, or
 * anywhere in the README and the reference pages ({@code FooTest}, {@code FooIT}, {@code FooContract}, a
 * method as {@code FooTest.method} or its start as {@code FooTest.meth...}, a glob as {@code Foo*}), is a
 * test class under {@code src/test/java} (it has test methods, or is an abstract contract a test class
 * extends) and a named method is a test method (annotated {@code @Test}, {@code @ParameterizedTest},
 * {@code @RepeatedTest}, {@code @TestFactory} or a meta-annotation of one), not any method of that name.
 */
class ProvedByTest {

    static final Pattern TEST_NAME = Pattern.compile(
            "`([A-Z][a-z][A-Za-z0-9]*(?:Test|IT|Contract|\\*))(?:\\.([a-z][A-Za-z0-9]*)(\\.\\.\\.)?)?`");

    static final Set<Class<? extends Annotation>> TEST_ANNOTATIONS =
            Set.of(Test.class, ParameterizedTest.class, RepeatedTest.class, TestFactory.class);

    static final Path GUARANTEES = Path.of("src", "site", "markdown", "guarantees.md");

    static String guarantees;
    static Map<String, Path> testClasses;

    @BeforeAll
    static void read() throws IOException {
        guarantees = Files.readString(GUARANTEES);
        try (Stream<Path> files = Files.walk(Path.of("src", "test", "java"))) {
            testClasses = files.filter(f -> f.toString().endsWith(".java"))
                    .collect(Collectors.toMap(
                            f -> f.getFileName().toString().replace(".java", ""), f -> f, (a, b) -> a));
        }
    }

    @Test
    void everyGuaranteeEndsWithTheTestsThatProveIt() {
        List<String> bullets = bullets(section("## Guarantees and limits"));
        assertTrue(bullets.size() >= 9, "the section's bullets: " + bullets.size());
        for (String bullet : bullets) {
            int proved = bullet.lastIndexOf("Proved by");
            assertTrue(proved >= 0, "no 'Proved by' in:\n" + bullet);
            assertNamesExist(bullet.substring(proved), bullet);
        }
    }

    @Test
    void everyRowOfTheProofTableNamesTestsThatExist() {
        String table = section("## What proves each promise");
        int rows = 0;
        for (String line : table.lines().toList()) {
            if (!line.startsWith("| ") || line.startsWith("| promise") || line.startsWith("|---")) {
                continue;
            }
            String[] cells = line.split("\\|", -1);
            assertTrue(cells.length >= 4, "two cells: " + line);
            assertNamesExist(cells[cells.length - 2], line);
            rows++;
        }
        assertTrue(rows >= 20, "the table's rows: " + rows);
    }

    @Test
    void everyTestNamedInTheReadmeOrAReferencePageExists() throws IOException {
        for (Path page : DocumentationTest.pages()) {
            Matcher m = TEST_NAME.matcher(Files.readString(page));
            while (m.find()) {
                assertNamesExist(m.group(0), page.toString());
            }
        }
    }

    @Test
    void aNameThatIsNoTestIsCaught() {
        assertThrowsAssertion(() -> assertNamesExist("Proved by `NoSuchThingTest`.", "made up"));
        assertThrowsAssertion(() -> assertNamesExist("Proved by `ProvedByTest.noSuchMethod`.", "made up"));
        assertThrowsAssertion(() -> assertNamesExist("Proved by nothing at all.", "made up"));
        // a helper method of that name is no test, nor is a class without tests
        assertThrowsAssertion(() -> assertNamesExist("Proved by `ProvedByTest.assertThrowsAssertion`.", "helper"));
        assertThrowsAssertion(() -> assertNamesExist("Proved by `ProvedByTest.assertThrows...`.", "helper"));
        assertThrowsAssertion(() -> assertNamesExist("Proved by `LockChild*`.", "no tests"));
    }

    private static void assertNamesExist(String text, String where) {
        Matcher m = TEST_NAME.matcher(text);
        int names = 0;
        while (m.find()) {
            names++;
            String name = m.group(1);
            if (name.endsWith("*")) {
                PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + name);
                assertTrue(
                        testClasses.keySet().stream().anyMatch(c -> glob.matches(Path.of(c)) && isTestClass(load(c))),
                        "no test class matches " + name + " in:\n" + where);
                continue;
            }
            assertTrue(
                    testClasses.containsKey(name),
                    "no test class " + name + " under src/test/java, named in:\n" + where);
            Class<?> type = load(name);
            if (m.group(2) == null) {
                assertTrue(
                        isTestClass(type),
                        name + " has no test method (nor is it an abstract contract a test class extends), named in:\n"
                                + where);
            } else {
                assertTrue(
                        declaresTest(type, m.group(2), m.group(3) != null),
                        "no test method " + m.group(0) + " in " + name + " (or the contract it extends), named in:\n"
                                + where);
            }
        }
        assertTrue(names > 0, "no test named in:\n" + where);
    }

    /** Loads a class of {@code src/test/java} by its simple name, without initialising it. */
    static Class<?> load(String simpleName) {
        Path relative = Path.of("src", "test", "java").relativize(testClasses.get(simpleName));
        String binary = relative.toString()
                .replace(".java", "")
                .replace(relative.getFileSystem().getSeparator(), ".");
        try {
            return Class.forName(binary, false, ProvedByTest.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError("not compiled: " + binary, e);
        }
    }

    /**
     * A class whose tests run: it (or a class it extends) has test methods and it is concrete, or it is an
     * abstract contract that some concrete test class extends.
     */
    static boolean isTestClass(Class<?> type) {
        if (testMethods(type).findAny().isEmpty()) {
            return false;
        }
        if (!Modifier.isAbstract(type.getModifiers())) {
            return true;
        }
        return testClasses.keySet().stream()
                .map(ProvedByTest::load)
                .anyMatch(c -> c != type && type.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers()));
    }

    /** Whether {@code type}, or a class it extends, has a test method named {@code method} (or starting so). */
    static boolean declaresTest(Class<?> type, String method, boolean prefix) {
        return testMethods(type)
                .anyMatch(m ->
                        prefix ? m.getName().startsWith(method) : m.getName().equals(method));
    }

    /** The test methods of {@code type}, the classes it extends, and its {@code @Nested} classes. */
    private static Stream<Method> testMethods(Class<?> type) {
        Stream<Method> own = Stream.of(type.getDeclaredMethods()).filter(ProvedByTest::isTestMethod);
        Stream<Method> nested = Stream.of(type.getDeclaredClasses())
                .filter(c -> c.isAnnotationPresent(Nested.class))
                .flatMap(ProvedByTest::testMethods);
        Class<?> parent = type.getSuperclass();
        Stream<Method> inherited = parent == null || parent == Object.class ? Stream.empty() : testMethods(parent);
        return Stream.of(own, nested, inherited).flatMap(m -> m);
    }

    /** Annotated {@code @Test}, {@code @ParameterizedTest}, {@code @RepeatedTest}, {@code @TestFactory}, or by a meta-annotation of one. */
    static boolean isTestMethod(Method method) {
        return Stream.of(method.getAnnotations()).anyMatch(a -> isTestAnnotation(a.annotationType(), new HashSet<>()));
    }

    private static boolean isTestAnnotation(Class<? extends Annotation> type, Set<Class<?>> seen) {
        if (TEST_ANNOTATIONS.contains(type)) {
            return true;
        }
        if (!seen.add(type) || type.getName().startsWith("java.lang.annotation.")) {
            return false;
        }
        return Stream.of(type.getAnnotations()).anyMatch(a -> isTestAnnotation(a.annotationType(), seen));
    }

    private static String section(String heading) {
        int start = guarantees.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, GUARANTEES + " has " + heading);
        int end = guarantees.indexOf("\n#", start + heading.length() + 2);
        return guarantees.substring(start + heading.length() + 2, end < 0 ? guarantees.length() : end);
    }

    /** The section's top-level bullets, each with its continuation lines. */
    private static List<String> bullets(String section) {
        List<String> out = new ArrayList<>();
        StringBuilder current = null;
        for (String line : section.lines().toList()) {
            if (line.startsWith("- ")) {
                if (current != null) {
                    out.add(current.toString());
                }
                current = new StringBuilder(line);
            } else if (current != null && line.startsWith("  ")) {
                current.append('\n').append(line);
            } else if (current != null) {
                out.add(current.toString());
                current = null;
            }
        }
        if (current != null) {
            out.add(current.toString());
        }
        return out;
    }

    private static void assertThrowsAssertion(Runnable r) {
        try {
            r.run();
        } catch (AssertionError expected) {
            return;
        }
        assertFalse(true, "a made-up name passed");
    }
}
