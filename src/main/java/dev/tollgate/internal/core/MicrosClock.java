package dev.tollgate.internal.core;

/** A source of time in microseconds, passed to whatever needs time so that tests can drive it. */
@FunctionalInterface
public interface MicrosClock {

    long nowMicros();

    /** Wall-clock microseconds since the epoch (the in-process store's stand-in for Redis {@code TIME}). */
    static MicrosClock system() {
        return () -> {
            java.time.Instant now = java.time.Instant.now();
            return now.getEpochSecond() * 1_000_000 + now.getNano() / 1000;
        };
    }
}
