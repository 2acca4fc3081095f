package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The documentation's claims point at the tests that prove them, and those tests exist: every bullet of
 * "Guarantees and limits" ({@code src/site/markdown/guarantees.md}) ends with a {@code Proved by} list,
 * every row of "What proves each promise" (the same page) names tests, and every test named there, or
 * anywhere in the README and the reference pages ({@code FooTest}, {@code FooIT}, {@code FooContract}, a
 * method as {@code FooTest.method} or its start as {@code FooTest.meth...}, a glob as {@code Foo*}), is a
 * class under {@code src/test/java} with that method.
 */
class ProvedByTest {

    static final Pattern TEST_NAME = Pattern.compile(
            "`([A-Z][a-z][A-Za-z0-9]*(?:Test|IT|Contract|\\*))(?:\\.([a-z][A-Za-z0-9]*)(\\.\\.\\.)?)?`");

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
                        testClasses.keySet().stream().anyMatch(c -> glob.matches(Path.of(c))),
                        "no test class matches " + name + " in:\n" + where);
                continue;
            }
            Path file = testClasses.get(name);
            assertTrue(file != null, "no test class " + name + " under src/test/java, named in:\n" + where);
            if (m.group(2) != null) {
                String method = m.group(2) + (m.group(3) == null ? "(" : "");
                assertTrue(
                        declares(file, method),
                        "no method " + m.group(0) + " in " + file + " (or the contract it extends), named in:\n"
                                + where);
            }
        }
        assertTrue(names > 0, "no test named in:\n" + where);
    }

    /** Whether {@code file}, or a class it extends, declares a method starting with {@code method}. */
    private static boolean declares(Path file, String method) {
        try {
            String source = Files.readString(file);
            if (Pattern.compile("void " + Pattern.quote(method)).matcher(source).find()) {
                return true;
            }
            Matcher parent = Pattern.compile("extends ([A-Z][A-Za-z0-9]*)").matcher(source);
            return parent.find()
                    && testClasses.containsKey(parent.group(1))
                    && declares(testClasses.get(parent.group(1)), method);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
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
