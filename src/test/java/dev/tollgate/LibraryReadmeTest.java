package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The README's "Using the library in your own WAR" shows what {@code ConsumerIT} builds and runs: every
 * XML block of that section stands, line for line, in the consumer WAR's {@code pom.xml}, its {@code
 * server.xml} or its {@code server-microprofile-7.1.xml} ({@code TelemetryIT}'s).
 */
class LibraryReadmeTest {

    static final Path CONSUMER = Path.of("src", "it", "consumer");
    static final Pattern XML_BLOCK = Pattern.compile("```xml\\n(.*?)```", Pattern.DOTALL);

    @Test
    void everyXmlBlockOfTheLibrarySectionIsInTheConsumerWar() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        int start = readme.indexOf("## Using the library in your own WAR");
        int end = readme.indexOf("\n## ", start + 1);
        assertTrue(start >= 0 && end > start, "the README has the section");
        List<List<String>> files = List.of(
                lines(Files.readString(CONSUMER.resolve("pom.xml")).replace("@project.version@", projectVersion())),
                lines(Files.readString(CONSUMER.resolve("src/main/liberty/config/server.xml"))),
                lines(Files.readString(CONSUMER.resolve("src/main/liberty/config/server-microprofile-7.1.xml"))));
        Matcher m = XML_BLOCK.matcher(readme.substring(start, end));
        int blocks = 0;
        while (m.find()) {
            List<String> block = lines(m.group(1));
            blocks++;
            assertTrue(
                    files.stream().anyMatch(f -> Collections.indexOfSubList(f, block) >= 0),
                    "not in src/it/consumer, line for line:\n" + m.group(1));
        }
        assertEquals(
                5,
                blocks,
                "the dependency, the features and the metrics note, MicroProfile 7.1's features and classloader");
    }

    private static String projectVersion() throws IOException {
        Matcher m = Pattern.compile("<artifactId>tollgate</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(Files.readString(Path.of("pom.xml")));
        assertTrue(m.find(), "the project's version in pom.xml");
        return m.group(1);
    }

    private static List<String> lines(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (!line.isBlank()) {
                out.add(line.strip());
            }
        }
        return out;
    }
}
