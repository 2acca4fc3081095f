package dev.tollgate.internal.ratelimit;

import java.util.Locale;

/** Whether a limit denies, or only counts what it would deny ({@code tollgate.limits.<name>.mode}). */
public enum LimitMode {
    /** Denies a call its bucket cannot pay for. */
    ENFORCE,
    /** Spends and decides as usual, but lets every call pass and counts the ones it would deny. */
    SHADOW,
    /** A shadow policy tried beside an enforced limit of the same name ({@code tollgate.limits.<name>.shadow.*}). */
    CANDIDATE;

    /** {@code enforce} or {@code shadow}, as configured; {@link IllegalArgumentException} otherwise. */
    public static LimitMode parse(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "enforce" -> ENFORCE;
            case "shadow" -> SHADOW;
            default -> throw new IllegalArgumentException("expected enforce or shadow");
        };
    }
}
