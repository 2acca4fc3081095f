package dev.tollgate.internal.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What a partner's answer says about its rate limit, read from its fields: the IETF draft's {@code
 * RateLimit-Policy} ({@code "name";q=<calls>;w=<seconds>}) and {@code RateLimit} ({@code
 * "name";r=<remaining>;t=<seconds>}), the older {@code X-RateLimit-Limit}/{@code -Remaining}/{@code -Reset} and
 * {@code RateLimit-Remaining}/{@code -Reset}, and {@code Retry-After} (seconds or an HTTP date).
 *
 * <p>A partner's fields are input from outside: a field longer than {@link #MAX_FIELD_LENGTH}, a policy list
 * of more than {@link #MAX_MEMBERS} members, a member that does not parse, a quota outside 1..{@link
 * #MAX_QUOTA}, a window outside {@link #MIN_WINDOW}..{@link #MAX_WINDOW}, a pause outside 0..{@link
 * #MAX_PAUSE} is ignored, as if the partner had not sent it: it changes nothing.
 *
 * @param quota the slowest rate the partner announced, with the smallest burst it allows
 * @param exhausted how long until calls are allowed again, when the partner says none is left
 * @param retryAfter the partner's {@code Retry-After}
 */
public record PartnerFields(Optional<Quota> quota, Optional<Duration> exhausted, Optional<Duration> retryAfter) {

    /** The longest field read; a longer one is ignored. */
    public static final int MAX_FIELD_LENGTH = 1024;
    /** The most members of a {@code RateLimit-Policy} list read; a longer list is ignored. */
    public static final int MAX_MEMBERS = 16;
    /** The largest quota believed. */
    public static final long MAX_QUOTA = 1_000_000_000L;
    /** The shortest window believed. */
    public static final Duration MIN_WINDOW = Duration.ofSeconds(1);
    /** The longest window believed. */
    public static final Duration MAX_WINDOW = Duration.ofDays(1);
    /** The longest pause ({@code Retry-After}, a reset) believed. */
    public static final Duration MAX_PAUSE = Duration.ofHours(1);

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,15}");
    private static final Pattern NAME =
            Pattern.compile("\"[^\"\\\\]{0,256}\"|[A-Za-z*][A-Za-z0-9:/!#$%&'*+.^_`|~-]{0,255}");

    /**
     * A partner's announced rate: a burst of {@code burst} calls, then {@code calls} per {@code window}.
     *
     * @param burst 1..{@link #MAX_QUOTA}
     * @param calls 1..{@link #MAX_QUOTA}
     * @param window {@link #MIN_WINDOW}..{@link #MAX_WINDOW}
     */
    public record Quota(long burst, long calls, Duration window) {
        public Quota {
            if (burst < 1 || burst > MAX_QUOTA || calls < 1 || calls > MAX_QUOTA) {
                throw new IllegalArgumentException(
                        "burst and calls must be 1.." + MAX_QUOTA + ", but were " + burst + " and " + calls);
            }
            if (window == null || window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
                throw new IllegalArgumentException("window must be 1s..1d, but was " + window);
            }
        }
    }

    /** Nothing announced. */
    public static final PartnerFields NONE = new PartnerFields(Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * Reads the fields of one answer.
     *
     * @param field the value of a named field (any case), {@code null} when absent
     * @param now the wall-clock time, for an HTTP date or an epoch reset
     */
    public static PartnerFields read(Function<String, String> field, Instant now) {
        Function<String, Optional<String>> f = name -> Optional.ofNullable(field.apply(name))
                .map(String::trim)
                .filter(v -> !v.isEmpty() && v.length() <= MAX_FIELD_LENGTH);
        Optional<Quota> quota = f.apply("RateLimit-Policy").flatMap(PartnerFields::policy);
        Optional<Duration> exhausted = f.apply("RateLimit")
                .flatMap(PartnerFields::exhaustedField)
                .or(() -> exhausted(f, "RateLimit-Remaining", "RateLimit-Reset", now))
                .or(() -> exhausted(f, "X-RateLimit-Remaining", "X-RateLimit-Reset", now));
        Optional<Duration> retryAfter = f.apply("Retry-After").flatMap(v -> retryAfter(v, now));
        return new PartnerFields(quota, exhausted, retryAfter);
    }

    /** The slowest member's rate, with the smallest member's burst; empty when any member is bad. */
    static Optional<Quota> policy(String value) {
        List<String> members = split(value, ',');
        if (members.isEmpty() || members.size() > MAX_MEMBERS) {
            return Optional.empty();
        }
        Quota slowest = null;
        long burst = Long.MAX_VALUE;
        for (String member : members) {
            Optional<Quota> q = member(member);
            if (q.isEmpty()) {
                return Optional.empty();
            }
            burst = Math.min(burst, q.get().calls());
            if (slowest == null || slower(q.get(), slowest)) {
                slowest = q.get();
            }
        }
        return Optional.of(new Quota(burst, slowest.calls(), slowest.window()));
    }

    private static boolean slower(Quota a, Quota b) {
        // a.calls / a.window < b.calls / b.window, exactly
        return Math.multiplyHigh(a.calls(), b.window().getSeconds()) == 0
                        && Math.multiplyHigh(b.calls(), a.window().getSeconds()) == 0
                ? a.calls() * b.window().getSeconds() < b.calls() * a.window().getSeconds()
                : false;
    }

    /** {@code "name";q=10;w=1}, or an older draft's {@code 10;w=1}. */
    private static Optional<Quota> member(String member) {
        List<String> parts = split(member, ';');
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        OptionalLong q = OptionalLong.empty();
        String item = parts.get(0);
        if (DIGITS.matcher(item).matches()) {
            q = OptionalLong.of(Long.parseLong(item));
        } else if (!NAME.matcher(item).matches()) {
            return Optional.empty();
        }
        OptionalLong w = OptionalLong.empty();
        for (String p : parts.subList(1, parts.size())) {
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq).trim();
            String v = eq < 0 ? "" : p.substring(eq + 1).trim();
            if (key.equals("q") || key.equals("w")) {
                if (!DIGITS.matcher(v).matches()) {
                    return Optional.empty();
                }
                long n = Long.parseLong(v);
                if (key.equals("q")) {
                    q = OptionalLong.of(n);
                } else {
                    w = OptionalLong.of(n);
                }
            }
        }
        if (q.isEmpty() || w.isEmpty() || q.getAsLong() < 1 || q.getAsLong() > MAX_QUOTA) {
            return Optional.empty();
        }
        Duration window = Duration.ofSeconds(w.getAsLong());
        if (window.compareTo(MIN_WINDOW) < 0 || window.compareTo(MAX_WINDOW) > 0) {
            return Optional.empty();
        }
        return Optional.of(new Quota(q.getAsLong(), q.getAsLong(), window));
    }

    /** The IETF draft's {@code RateLimit}: {@code "name";r=0;t=5} says none is left for 5 s. */
    private static Optional<Duration> exhaustedField(String value) {
        List<String> members = split(value, ',');
        if (members.isEmpty() || members.size() > MAX_MEMBERS) {
            return Optional.empty();
        }
        Duration longest = null;
        for (String member : members) {
            List<String> parts = split(member, ';');
            if (parts.isEmpty() || !NAME.matcher(parts.get(0)).matches()) {
                return Optional.empty();
            }
            String r = null;
            String t = null;
            for (String p : parts.subList(1, parts.size())) {
                int eq = p.indexOf('=');
                if (eq > 0 && p.substring(0, eq).trim().equals("r")) {
                    r = p.substring(eq + 1).trim();
                } else if (eq > 0 && p.substring(0, eq).trim().equals("t")) {
                    t = p.substring(eq + 1).trim();
                }
            }
            if (r == null || t == null || !DIGITS.matcher(r).matches()) {
                return Optional.empty();
            }
            Optional<Duration> pause = seconds(t);
            if (pause.isEmpty()) {
                return Optional.empty();
            }
            if (Long.parseLong(r) == 0 && (longest == null || pause.get().compareTo(longest) > 0)) {
                longest = pause.get();
            }
        }
        return Optional.ofNullable(longest);
    }

    /** The older fields: {@code Remaining: 0} with a {@code Reset} in seconds, or an epoch second. */
    private static Optional<Duration> exhausted(
            Function<String, Optional<String>> f, String remaining, String reset, Instant now) {
        Optional<String> r = f.apply(remaining).filter(v -> DIGITS.matcher(v).matches());
        if (r.isEmpty() || Long.parseLong(r.get()) != 0) {
            return Optional.empty();
        }
        return f.apply(reset).filter(v -> DIGITS.matcher(v).matches()).flatMap(v -> {
            long n = Long.parseLong(v);
            // Seconds from now, or (as GitHub and others send it) an epoch second: no pause is 30 years long.
            long delta = n >= 1_000_000_000L ? n - now.getEpochSecond() : n;
            return delta < 0 ? Optional.empty() : pause(Duration.ofSeconds(delta));
        });
    }

    private static Optional<Duration> retryAfter(String value, Instant now) {
        if (DIGITS.matcher(value).matches()) {
            return seconds(value);
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME)
                    .toInstant();
            return at.isBefore(now) ? Optional.of(Duration.ZERO) : pause(Duration.between(now, at));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<Duration> seconds(String v) {
        return DIGITS.matcher(v).matches() ? pause(Duration.ofSeconds(Long.parseLong(v))) : Optional.empty();
    }

    private static Optional<Duration> pause(Duration d) {
        return d.isNegative() || d.compareTo(MAX_PAUSE) > 0 ? Optional.empty() : Optional.of(d);
    }

    /** Splits on {@code sep} outside double quotes; empty when a quote is left open or a part is empty. */
    private static List<String> split(String value, char sep) {
        List<String> parts = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            }
            if (c == sep && !quoted) {
                parts.add(part.toString().trim());
                part.setLength(0);
            } else {
                part.append(c);
            }
        }
        parts.add(part.toString().trim());
        return quoted || parts.stream().anyMatch(String::isEmpty) ? List.of() : parts;
    }
}
