package dev.tollgate.internal.lock;

import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * What a lock key holds: a proof of ownership, 16 bytes from {@link SecureRandom} in hex (no other holder
 * can guess or repeat it), then {@code ':'} and the holder's name, which an operator may see. The whole
 * value is the token a release or an extend must present; only the name is ever shown.
 */
final class LockTokens {

    private static final int BYTES = 16;
    private static final char BEFORE_HOLDER = ':';

    private final SecureRandom random = new SecureRandom();
    private final String holder;

    /** @param holder the name every token of this lock carries ({@link LockNames#checkHolder}) */
    LockTokens(String holder) {
        this.holder = LockNames.checkHolder(holder);
    }

    String next() {
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes) + BEFORE_HOLDER + holder;
    }

    /** The holder's name in a lock key's value; empty when it names none. */
    static String holderOf(String value) {
        int at = value.indexOf(BEFORE_HOLDER);
        return at < 0 ? "" : value.substring(at + 1);
    }
}
