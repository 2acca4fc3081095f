package dev.tollgate;

import java.util.regex.Pattern;

/**
 * Whose bucket a call spends from (a limit's or a concurrency limit's {@code key}): the client's address,
 * the authenticated caller, everyone together, a request header's value, or what a {@link KeyResolver}
 * bean says. In properties: {@code ip}, {@code principal}, {@code global}, {@code header:<Name>}, or the
 * bean's name.
 */
public sealed interface Key {

    /** The client's address (the TCP peer, or the forwarded client behind a trusted proxy). */
    record Ip() implements Key {}

    /** The authenticated caller's name. */
    record Principal() implements Key {}

    /** One bucket for everyone. */
    record Global() implements Key {}

    /** The value of the request header {@code name}. */
    record Header(String name) implements Key {
        public Header {
            if (name == null || !TOKEN.matcher(name).matches()) {
                throw new IllegalArgumentException("header:<Name> needs a header name, but was '" + name + "'");
            }
        }
    }

    /** What the CDI bean named {@code name}, a {@link KeyResolver}, says. */
    record Resolver(String name) implements Key {
        public Resolver {
            if (name == null || !BEAN.matcher(name).matches()) {
                throw new IllegalArgumentException("a KeyResolver bean's name, but was '" + name + "'");
            }
        }
    }

    /** What a header's name may be (an HTTP token). */
    Pattern TOKEN = Pattern.compile("[A-Za-z0-9!#$%&'*+.^_`|~-]+");

    /** What a bean's name may be. */
    Pattern BEAN = Pattern.compile("[A-Za-z_$][A-Za-z0-9_$.-]*");

    /** What the setting takes, for messages. */
    String RULE = "ip, principal, global, header:<Name> or a KeyResolver bean name";

    static Key ip() {
        return new Ip();
    }

    static Key principal() {
        return new Principal();
    }

    static Key global() {
        return new Global();
    }

    static Key header(String name) {
        return new Header(name);
    }

    static Key resolver(String beanName) {
        return new Resolver(beanName);
    }

    /** Parses a setting ({@link #RULE}); {@link IllegalArgumentException} says what is accepted. */
    static Key parse(String text) {
        String t = text.trim();
        switch (t) {
            case "ip":
                return ip();
            case "principal":
                return principal();
            case "global":
                return global();
            default:
                break;
        }
        if (t.regionMatches(true, 0, "header:", 0, 7)) {
            String header = t.substring(7).trim();
            if (!TOKEN.matcher(header).matches()) {
                throw new IllegalArgumentException("header:<Name> needs a header name after the colon");
            }
            return header(header);
        }
        if (!BEAN.matcher(t).matches()) {
            throw new IllegalArgumentException("expected " + RULE);
        }
        return resolver(t);
    }
}
