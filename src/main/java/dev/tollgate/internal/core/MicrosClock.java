package dev.tollgate.internal.core;

/** A source of time in microseconds, passed to whatever needs time so that tests can drive it. */
@FunctionalInterface
public interface MicrosClock {

    long nowMicros();

    /**
     * Wall-clock microseconds since the epoch (the in-process store's stand-in for Redis {@code TIME}),
     * read as {@link System#nanoTime()} plus the wall clock's offset to it, taken again every second
     * ({@link WallClock}).
     */
    static MicrosClock system() {
        return new WallClock();
    }
}
