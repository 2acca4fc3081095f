package dev.tollgate.internal.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * The properties file of {@code tollgate.config.file}, read as settings that outrank every other source:
 * limits only ({@code tollgate.limits.*}), since nothing else can change while the application runs.
 * Read whole, at most {@link #MAX_BYTES}, from a regular file (a symbolic link is followed: a mounted
 * ConfigMap is one) whose size, modification time and identity are the same before and after the read.
 */
public final class LimitsFile {

    /** The largest file read: 1 MiB, some thousands of limits; a larger one is refused unread. */
    public static final int MAX_BYTES = 1 << 20;

    private LimitsFile() {}

    /**
     * The file's settings, or the problems that keep it from being used.
     *
     * @param values the file's {@code tollgate.limits.*} settings
     * @param problems one line per problem, naming the file
     */
    record Read(Map<String, String> values, List<String> problems) {}

    /**
     * One read of the file: its bytes, or why there are none to use (the file is missing, unreadable, not
     * a regular file, too large), or that it changed while it was read.
     */
    public static final class Snapshot {
        private final byte[] bytes;
        private final String problem;
        private final boolean changing;

        private Snapshot(byte[] bytes, String problem, boolean changing) {
            this.bytes = bytes;
            this.problem = problem;
            this.changing = changing;
        }

        /** Whether it changed while it was read: no version to use, nor to compare. */
        public boolean changing() {
            return changing;
        }

        /** The same bytes, or the same problem, as {@code other}; never so while either was changing. */
        public boolean same(Snapshot other) {
            return other != null
                    && !changing
                    && !other.changing
                    && Objects.equals(problem, other.problem)
                    && Arrays.equals(bytes, other.bytes);
        }

        /** Whether it holds at least one {@code tollgate.limits.*} setting. */
        public boolean hasLimits() {
            return bytes != null
                    && parse(Path.of(SettingsReader.CONFIG_FILE), this).values().size() > 0;
        }
    }

    /** Reads {@code file} once: see {@link Snapshot}. */
    public static Snapshot snapshot(Path file) {
        try {
            BasicFileAttributes before = Files.readAttributes(file, BasicFileAttributes.class);
            if (!before.isRegularFile()) {
                return refused(file, before.isDirectory() ? "is a directory, not a file" : "is not a regular file");
            }
            if (before.size() > MAX_BYTES) {
                return refused(file, "is " + before.size() + " bytes, over the cap of " + MAX_BYTES + " bytes");
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(file)) {
                bytes = in.readNBytes(MAX_BYTES + 1);
            }
            BasicFileAttributes after = Files.readAttributes(file, BasicFileAttributes.class);
            boolean changed = after.size() != bytes.length
                    || before.size() != after.size()
                    || !before.lastModifiedTime().equals(after.lastModifiedTime())
                    || !Objects.equals(before.fileKey(), after.fileKey());
            if (changed) {
                return new Snapshot(null, null, true);
            }
            return new Snapshot(bytes, null, false);
        } catch (IOException | RuntimeException e) {
            return refused(
                    file,
                    "cannot be read: " + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage()));
        }
    }

    private static Snapshot refused(Path file, String why) {
        return new Snapshot(null, SettingsReader.CONFIG_FILE + "=" + file + " (" + why + ")", false);
    }

    /** The file as the deployment reads it: one snapshot, which must not change while it is read. */
    static Read read(Path file) {
        return parse(file, snapshot(file));
    }

    /** {@code version}'s settings; {@code file} names it in the problems. */
    static Read parse(Path file, Snapshot version) {
        if (version.changing) {
            return new Read(
                    Map.of(),
                    List.of(SettingsReader.CONFIG_FILE + "=" + file + " (changed while it was read: write the new"
                            + " version beside it and rename it over the file)"));
        }
        if (version.problem != null) {
            return new Read(Map.of(), List.of(version.problem));
        }
        Properties p = new Properties();
        try {
            p.load(new StringReader(StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(version.bytes))
                    .toString()));
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
