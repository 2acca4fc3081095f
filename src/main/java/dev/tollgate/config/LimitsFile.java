package dev.tollgate.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The properties file of {@code tollgate.config.file}, read as settings that outrank every other source:
 * limits only ({@code tollgate.limits.*}), since nothing else can change while the application runs.
 */
final class LimitsFile {

    private LimitsFile() {}

    /**
     * The file's settings, or the problems that keep it from being used.
     *
     * @param values the file's {@code tollgate.limits.*} settings
     * @param problems one line per problem, naming the file
     */
    record Read(Map<String, String> values, List<String> problems) {}

    static Read read(Path file) {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        } catch (IOException | RuntimeException e) {
            return new Read(
                    Map.of(),
                    List.of(SettingsReader.CONFIG_FILE + "=" + file + " (cannot be read: "
                            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ")"));
        }
        Map<String, String> values = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (String name : p.stringPropertyNames()) {
            if (name.startsWith(SettingsReader.LIMITS)) {
                values.put(name, p.getProperty(name));
            } else {
                problems.add(name + " in " + SettingsReader.CONFIG_FILE + "=" + file
                        + " (only tollgate.limits.* settings may change while the application runs)");
            }
        }
        return new Read(values, problems);
    }

    /** {@code base} with {@code top}'s values over it. */
    static PropertySource over(PropertySource base, Map<String, String> top) {
        return new PropertySource() {
            @Override
            public Optional<String> get(String name) {
                String v = top.get(name);
                return v != null ? Optional.of(v) : base.get(name);
            }

            @Override
            public Iterable<String> names() {
                List<String> all = new ArrayList<>(top.keySet());
                base.names().forEach(all::add);
                return all;
            }
        };
    }
}
