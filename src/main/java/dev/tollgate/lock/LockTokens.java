package dev.tollgate.lock;

import java.security.SecureRandom;
import java.util.HexFormat;

/** Proofs of ownership: 16 bytes from {@link SecureRandom}, so no other holder can guess or repeat one. */
final class LockTokens {

    private static final int BYTES = 16;

    private final SecureRandom random = new SecureRandom();

    String next() {
        byte[] bytes = new byte[BYTES];
        random.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
