package dev.tollgate.internal.http;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * One hop a proxy recorded: a literal address, or a label for a client the proxy did not name by
 * address. RFC 7239's node syntax, which also covers what {@code X-Forwarded-For} carries: {@code
 * 192.0.2.1}, {@code 192.0.2.1:4711}, {@code 2001:db8::1}, {@code [2001:db8::1]:4711}, {@code unknown},
 * {@code _hidden} (an obfuscated identifier, optionally with a port).
 *
 * @param address the hop's address (4 or 16 bytes), or null when the hop is a label
 * @param label {@link #UNKNOWN_LABEL} or the obfuscated identifier; null when the hop is an address
 */
record Hop(byte[] address, String label) {

    /** The key of clients no proxy could name: they share one bucket, apart from every address. */
    static final String UNKNOWN_LABEL = "unknown";

    static final Hop UNKNOWN = new Hop(null, UNKNOWN_LABEL);

    private static final Pattern OBFUSCATED = Pattern.compile("_[A-Za-z0-9._-]{1,64}");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}|_[A-Za-z0-9._-]{1,64}");
    private static final int MAX_LENGTH = 128;

    /** What one hop's text says; anything malformed is {@link #UNKNOWN}, never a guess. */
    static Hop node(String text) {
        String v = text.trim();
        if (v.isEmpty() || v.length() > MAX_LENGTH) {
            return UNKNOWN;
        }
        if (v.startsWith("[")) {
            int close = v.indexOf(']');
            if (close < 0 || !portOrNothing(v.substring(close + 1))) {
                return UNKNOWN;
            }
            String inside = v.substring(1, close);
            return inside.indexOf(':') < 0 ? UNKNOWN : address(inside);
        }
        int colon = v.indexOf(':');
        if (colon >= 0 && v.indexOf(':', colon + 1) >= 0) {
            return address(v); // bare IPv6: X-Forwarded-For writes it so, and it has no port then
        }
        String name = colon < 0 ? v : v.substring(0, colon);
        if (colon >= 0 && !portOrNothing(v.substring(colon))) {
            return UNKNOWN;
        }
        if (OBFUSCATED.matcher(name).matches()) {
            return new Hop(null, name);
        }
        if (name.toLowerCase(Locale.ROOT).equals(UNKNOWN_LABEL)) {
            return UNKNOWN;
        }
        return name.indexOf('.') < 0 ? UNKNOWN : address(name);
    }

    private static boolean portOrNothing(String s) {
        if (s.isEmpty()) {
            return true;
        }
        if (s.charAt(0) != ':' || !PORT.matcher(s.substring(1)).matches()) {
            return false;
        }
        return s.charAt(1) == '_' || Integer.parseInt(s.substring(1)) <= 65535;
    }

    private static Hop address(String literal) {
        return IpLiteral.parse(literal).map(b -> new Hop(b, null)).orElse(UNKNOWN);
    }
}
