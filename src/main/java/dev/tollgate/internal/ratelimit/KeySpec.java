package dev.tollgate.internal.ratelimit;

import dev.tollgate.Key;

/**
 * Whose bucket a call spends from, as the engine holds it: the {@link Key} of a limit's or a concurrency
 * limit's {@code key} setting ({@code ip}, {@code principal}, {@code global}, {@code header:<Name>}, or the
 * name of a {@code KeyResolver} bean).
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

    /** A CDI bean named {@code name} that implements {@code dev.tollgate.spi.KeyResolver}. */
    record Bean(String name) implements KeySpec {}

    /** Parses a setting ({@link Key#parse}); {@link IllegalArgumentException} says what is accepted. */
    static KeySpec parse(String text) {
        return of(Key.parse(text));
    }

    /** The engine's form of {@code key}. */
    static KeySpec of(Key key) {
        if (key instanceof Key.Header h) {
            return new Header(h.name());
        }
        if (key instanceof Key.Resolver r) {
            return new Bean(r.name());
        }
        return key instanceof Key.Ip ? new Ip() : key instanceof Key.Principal ? new Principal() : new Global();
    }

    /** The API's form of this key. */
    default Key key() {
        if (this instanceof Header h) {
            return Key.header(h.name());
        }
        if (this instanceof Bean b) {
            return Key.resolver(b.name());
        }
        return this instanceof Ip ? Key.ip() : this instanceof Principal ? Key.principal() : Key.global();
    }
}
