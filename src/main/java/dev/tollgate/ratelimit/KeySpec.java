package dev.tollgate.ratelimit;

import java.util.regex.Pattern;

/**
 * Whose bucket a call spends from, as configured in {@code tollgate.limits.<name>.key}: {@code ip},
 * {@code principal}, {@code global}, {@code header:<Name>}, or the name of a {@code KeyResolver} bean.
 */
public sealed interface KeySpec {

    /** The client's address (the TCP peer, or the forwarded client behind a trusted proxy). */
    record Ip() implements KeySpec {}

    /** The authenticated caller's name. */
    record Principal() implements KeySpec {}

    /** One bucket for everyone. */
    record Global() implements KeySpec {}

    /** The value of a request header. */
    record Header(String name) implements KeySpec {}

    /** A CDI bean named {@code name} that implements {@code dev.tollgate.KeyResolver}. */
    record Bean(String name) implements KeySpec {}

    Pattern TOKEN = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

    /** Parses a setting; {@link IllegalArgumentException} says what is accepted. */
    static KeySpec parse(String text) {
        String t = text.trim();
        switch (t) {
            case "ip":
                return new Ip();
            case "principal":
                return new Principal();
            case "global":
                return new Global();
            default:
                break;
        }
        if (t.regionMatches(true, 0, "header:", 0, 7)) {
            String header = t.substring(7).trim();
            if (!TOKEN.matcher(header).matches()) {
                throw new IllegalArgumentException("header:<Name> needs a header name after the colon");
            }
            return new Header(header);
        }
        if (!Pattern.matches("[A-Za-z_$][A-Za-z0-9_$.-]*", t)) {
            throw new IllegalArgumentException(
                    "expected ip, principal, global, header:<Name> or a KeyResolver bean name");
        }
        return new Bean(t);
    }
}
