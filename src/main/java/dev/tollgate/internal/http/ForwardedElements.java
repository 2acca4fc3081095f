package dev.tollgate.internal.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@code for} of each element of one {@code Forwarded} line (RFC 7239): elements split at commas
 * and parameters at semicolons, never inside a quoted string. An element that is malformed, or has no
 * {@code for}, is an {@link Hop#UNKNOWN} hop; after it, reading resumes at the next comma, so a client's
 * unterminated quote cannot swallow the element a proxy appended after it.
 */
final class ForwardedElements {

    private final String line;
    private int at;

    private ForwardedElements(String line) {
        this.line = line;
    }

    static List<Hop> of(String line) {
        return new ForwardedElements(line).all();
    }

    private List<Hop> all() {
        List<Hop> hops = new ArrayList<>();
        while (at <= line.length()) {
            int start = at;
            skipSpace();
            if (at == line.length() || line.charAt(at) == ',') {
                at++; // an empty list element, allowed and ignored
                continue;
            }
            Hop hop = element();
            if (hop == null) {
                hops.add(Hop.UNKNOWN);
                int next = line.indexOf(',', start);
                at = next < 0 ? line.length() + 1 : next + 1;
            } else {
                hops.add(hop);
                at++; // past the comma, or past the end
            }
        }
        return hops;
    }

    /** The element's hop, ending at a comma or the line's end; null when malformed. */
    private Hop element() {
        Hop hop = null;
        while (true) {
            String name = token();
            if (name.isEmpty() || !take('=')) {
                return null;
            }
            String value = at < line.length() && line.charAt(at) == '"' ? quoted() : token();
            if (value == null || value.isEmpty()) {
                return null;
            }
            if (name.toLowerCase(Locale.ROOT).equals("for")) {
                if (hop != null) {
                    return null; // a parameter occurs at most once per element
                }
                hop = Hop.node(value);
            }
            skipSpace();
            if (at == line.length() || line.charAt(at) == ',') {
                return hop == null ? Hop.UNKNOWN : hop;
            }
            if (!take(';')) {
                return null;
            }
            skipSpace();
        }
    }

    private String token() {
        int start = at;
        while (at < line.length() && isTokenChar(line.charAt(at))) {
            at++;
        }
        return line.substring(start, at);
    }

    /** A quoted string's content with its escapes undone; null when it is not closed. */
    private String quoted() {
        StringBuilder out = new StringBuilder();
        at++;
        while (at < line.length()) {
            char c = line.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c == '\\') {
                if (at == line.length()) {
                    return null;
                }
                c = line.charAt(at++);
            }
            out.append(c);
        }
        return null;
    }

    private boolean take(char c) {
        if (at < line.length() && line.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void skipSpace() {
        while (at < line.length() && (line.charAt(at) == ' ' || line.charAt(at) == '\t')) {
            at++;
        }
    }

    private static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
