package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README is a front door of at most 300 lines and the reference lives in {@code src/site/markdown}:
 * every relative link of the README and the pages names a file that exists (and a heading of it, for an
 * anchor), the README links every page, CI runs the README's test command, and every {@code tollgate.*}
 * property the code names is named on some page.
 */
class DocumentationTest {

    static final Path README = Path.of("README.md");
    static final Path PAGES = Path.of("src", "site", "markdown");
    static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    static final Pattern FENCE = Pattern.compile("(?ms)^\\s*```.*?^\\s*```[^\\n]*$");
    static final Pattern CODE_SPAN = Pattern.compile("`[^`\\n]*`");

    /** The README and every reference page. */
    static List<Path> pages() throws IOException {
        List<Path> out = new ArrayList<>(List.of(README));
        try (Stream<Path> files = Files.list(PAGES)) {
            files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void theReadmeIsAFrontDoorOfAtMost300Lines() throws IOException {
        int lines = Files.readAllLines(README).size();
        assertTrue(lines <= 300, "README.md has " + lines + " lines; move reference text to " + PAGES);
    }

    @Test
    void everyRelativeLinkNamesAFileThatExistsAndEveryAnchorAHeadingOfIt() throws IOException {
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : pages()) {
            String text = Files.readString(page);
            links += links(text).size();
            broken.addAll(brokenLinks(page, text));
        }
        assertTrue(links >= 50, "links found: " + links);
        assertEquals(List.of(), broken);
    }

    @Test
    void aBrokenLinkOrAnchorIsCaught() {
        Path page = PAGES.resolve("made-up.md");
        assertEquals(
                List.of(),
                brokenLinks(page, "[ok](guarantees.md#what-proves-each-promise) [top](#a-title)\n# A title"));
        assertEquals(1, brokenLinks(page, "[gone](no-such-page.md)").size());
        assertEquals(
                1, brokenLinks(page, "[gone](guarantees.md#no-such-heading)").size());
        assertEquals(1, brokenLinks(page, "[gone](#no-such-heading)\n# A title").size());
        assertEquals(1, brokenLinks(README, "[gone](guarantees.md)").size(), "resolved from the README's folder");
        assertEquals(List.of(), brokenLinks(page, "```\n[not a link](nowhere.md)\n```\n`[nor](this.md)`"));
    }

    @Test
    void headingsAreAnchoredAsGitHubAnchorsThem() {
        assertEquals(
                List.of(
                        "locks-what-they-promise-and-what-they-dont",
                        "http-on-liberty-http-13httpmd-http-ab",
                        "a",
                        "a-1"),
                anchors("## Locks: what they promise and what they don't\n"
                        + "## HTTP on Liberty (`http-1..3/http.md`, `http-ab/`)\n# A\n### A\n"));
    }

    @Test
    void theReadmeLinksEveryReferencePage() throws IOException {
        String readme = Files.readString(README);
        for (Path page : pages().subList(1, pages().size())) {
            assertTrue(readme.contains("](src/site/markdown/" + page.getFileName() + ")"), "README.md links " + page);
        }
    }

    @Test
    void ciRunsTheReadmesTestCommand() throws IOException {
        Matcher readme =
                Pattern.compile("(?m)^(mvn [^#\\n]*?)\\s+# run every test").matcher(Files.readString(README));
        assertTrue(readme.find(), "README.md's test command, '# run every test'");
        List<String> ci = Files.readAllLines(Path.of(".ci", "run")).stream()
                .map(String::strip)
                .filter(l -> l.startsWith("mvn "))
                .toList();
        assertEquals(1, ci.size(), ".ci/run's Maven commands: " + ci);
        assertEquals(goals(readme.group(1)), goals(ci.get(0)), "README.md: " + readme.group(1) + ", .ci/run: " + ci);
    }

    @Test
    void everyPropertyTheCodeNamesIsNamedOnSomePage() throws IOException {
        StringBuilder docs = new StringBuilder();
        for (Path page : pages()) {
            docs.append(Files.readString(page));
        }
        Set<String> missing = new TreeSet<>();
        Pattern property = Pattern.compile("\"(tollgate\\.[a-z0-9.<>*-]+)");
        try (Stream<Path> files = Files.walk(Path.of("src", "main"))) {
            // Text only: the dashboard's picture (src/main/grafana) is a PNG.
            for (Path f : files.filter(Files::isRegularFile)
                    .filter(f -> !f.toString().endsWith(".png"))
                    .toList()) {
                Matcher m = property.matcher(Files.readString(f));
                while (m.find()) {
                    String name = m.group(1).replaceAll("\\.$", "");
                    if (!docs.toString().contains(name)) {
                        missing.add(name + " (" + f + ")");
                    }
                }
            }
        }
        assertEquals(Set.of(), missing, "named in src/main, in neither README.md nor " + PAGES);
    }

    /** The problems of {@code text}'s relative links, read as the file {@code page}. */
    static List<String> brokenLinks(Path page, String text) {
        List<String> out = new ArrayList<>();
        for (String link : links(text)) {
            if (link.matches("^[a-z]+:.*")) {
                continue; // http:, https:, mailto:
            }
            int hash = link.indexOf('#');
            String file = hash < 0 ? link : link.substring(0, hash);
            String anchor = hash < 0 ? null : link.substring(hash + 1);
            Path target = file.isEmpty() ? page : page.resolveSibling(file).normalize();
            if (file.isEmpty() || Files.exists(target)) {
                if (anchor != null && target.toString().endsWith(".md")) {
                    List<String> anchors;
                    try {
                        anchors = anchors(file.isEmpty() ? text : Files.readString(target));
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                    if (!anchors.contains(anchor)) {
                        out.add(page + ": " + link + " (no heading of " + target + " has that anchor)");
                    }
                }
            } else {
                out.add(page + ": " + link + " (no file " + target + ")");
            }
        }
        return out;
    }

    /** The link targets of {@code text}, outside code blocks and code spans. */
    static List<String> links(String text) {
        String prose = CODE_SPAN.matcher(FENCE.matcher(text).replaceAll("")).replaceAll("");
        List<String> out = new ArrayList<>();
        Matcher m = LINK.matcher(prose);
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** GitHub's anchors of {@code text}'s headings: lower case, punctuation dropped, spaces as '-'. */
    static List<String> anchors(String text) {
        Map<String, Integer> seen = new HashMap<>();
        List<String> out = new ArrayList<>();
        for (String line : FENCE.matcher(text).replaceAll("").lines().toList()) {
            if (!line.matches("^#{1,6} .*")) {
                continue;
            }
            String slug = line.replaceFirst("^#+ ", "")
                    .strip()
                    .toLowerCase(Locale.ROOT)
                    .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                    .replace(' ', '-');
            int n = seen.merge(slug, 1, Integer::sum);
            out.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return out;
    }

    /** A Maven command's words but its output options ({@code --batch-mode}, {@code -B}). */
    private static List<String> goals(String command) {
        return Arrays.stream(command.strip().split("\\s+"))
                .filter(w -> !w.equals("--batch-mode") && !w.equals("-B"))
                .toList();
    }
}
