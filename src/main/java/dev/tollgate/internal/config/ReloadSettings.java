package dev.tollgate.internal.config;

import dev.tollgate.internal.core.Durations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Limits re-read while the application runs.
 *
 * @param file {@code tollgate.config.file}: a properties file of {@code tollgate.limits.*} settings that
 *     outrank every other source, read at deploy and again whenever it changes; empty: limits change
 *     only with a redeploy
 * @param interval {@code tollgate.config.interval}: how often the file is looked at
 */
public record ReloadSettings(Optional<Path> file, Duration interval) {

    /** The default interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(5);

    public ReloadSettings {
        Duration shortest = Setting.CONFIG_INTERVAL.shortest();
        if (file == null || interval == null || interval.compareTo(shortest) < 0) {
            throw new IllegalArgumentException(
                    "a file (or none) and an interval >= " + Durations.format(shortest) + " are required");
        }
    }

    /** No file. */
    public static ReloadSettings none() {
        return new ReloadSettings(Optional.empty(), DEFAULT_INTERVAL);
    }
}
