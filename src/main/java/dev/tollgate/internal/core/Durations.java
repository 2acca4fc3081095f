package dev.tollgate.internal.core;

import dev.tollgate.LimitRules;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code 250ms}, {@code 1s}, {@code 5m}, {@code 1h}, {@code 1d} and ISO-8601 ({@code PT1S}). */
public final class Durations {

    private static final Pattern SHORT = Pattern.compile("(\\d{1,12})\\s*(ms|s|m|h|d)");

    private Durations() {}

    /** The duration, or {@link IllegalArgumentException} saying what is accepted. */
    public static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SHORT.matcher(t);
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofDays(n);
            };
        }
        try {
            return Duration.parse(text.trim());
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("expected a duration such as 250ms, 1s, 5m, 1h or PT1S");
        }
    }

    /**
     * {@code d} in whole milliseconds, rounded up, as Redis takes an expiry; {@link
     * IllegalArgumentException} naming {@code what} unless &gt; 0.
     */
    public static long positiveMillis(String what, Duration d) {
        if (d == null || !LimitRules.ttlFits(d)) {
            throw new IllegalArgumentException(what + ": ttl " + LimitRules.TTL_RULE + ", but was " + d);
        }
        long ms = d.toMillis();
        return d.equals(Duration.ofMillis(ms)) ? ms : ms + 1;
    }

    /** The shortest of the forms above that says {@code d} exactly. */
    public static String format(Duration d) {
        if (d.toNanosPart() % 1_000_000 != 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        return s % 3600 == 0 && s > 0 ? s / 3600 + "h" : s % 60 == 0 && s > 0 ? s / 60 + "m" : s + "s";
    }
}
