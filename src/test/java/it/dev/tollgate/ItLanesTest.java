package it.dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The ITs run two at a time (failsafe's JUnit configuration), so each IT class says which lane it is in,
 * and the lane must fit what it touches: a class that starts a server of its own ({@code ExtraServer.start})
 * is {@link OwnServer} or {@link Alone}; any other class talks to the two build servers, and is
 * {@link SharedServers} or {@link Alone}. A class with no lane, two lanes or the wrong one is named here.
 */
class ItLanesTest {

    private static final Path ITS = Path.of("src", "test", "java", "it", "dev", "tollgate");
    private static final Pattern LANE = Pattern.compile("(?m)^@(SharedServers|OwnServer|Alone)$");

    @Test
    void everyItClassIsInTheLaneOfWhatItTouches() throws IOException {
        List<String> wrong = new ArrayList<>();
        try (Stream<Path> files = Files.list(ITS)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith("IT.java")).sorted().toList()) {
                wrong.addAll(problems(file.getFileName().toString(), Files.readString(file)));
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void aClassWithoutItsLaneIsCaught() {
        assertEquals(List.of("XIT: no lane"), problems("XIT.java", "class XIT {}"));
        assertEquals(
                List.of("XIT: starts a server of its own but is in lane SharedServers"),
                problems("XIT.java", "@SharedServers\nclass XIT { Object s = ExtraServer.start(\"x\"); }"));
        assertEquals(
                List.of("XIT: talks to the build servers but is in lane OwnServer"),
                problems("XIT.java", "@OwnServer\nclass XIT {}"));
        assertEquals(List.of("XIT: 2 lanes"), problems("XIT.java", "@Alone\n@OwnServer\nclass XIT {}"));
        assertEquals(List.of(), problems("XIT.java", "@Alone\nclass XIT {}"));
    }

    static List<String> problems(String file, String source) {
        String name = file.substring(0, file.length() - ".java".length());
        List<String> lanes = LANE.matcher(source).results().map(m -> m.group(1)).toList();
        if (lanes.isEmpty()) {
            return List.of(name + ": no lane");
        }
        if (lanes.size() > 1) {
            return List.of(name + ": " + lanes.size() + " lanes");
        }
        String lane = lanes.get(0);
        boolean own = source.contains("ExtraServer.start(");
        if (own && lane.equals("SharedServers")) {
            return List.of(name + ": starts a server of its own but is in lane " + lane);
        }
        if (!own && lane.equals("OwnServer")) {
            return List.of(name + ": talks to the build servers but is in lane " + lane);
        }
        return List.of();
    }
}
