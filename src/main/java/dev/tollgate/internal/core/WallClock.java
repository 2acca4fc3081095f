package dev.tollgate.internal.core;

import java.time.Instant;

/**
 * Wall-clock microseconds at the cost of {@link System#nanoTime()}: the monotonic clock plus the wall
 * clock's offset to it, read again at most a second after the last reading. {@link Instant#now()} costs
 * about twice as much and makes an object, and the in-process stores read the clock on every decision.
 * Both clocks run at the rate NTP sets, so between two readings of the offset they agree; a step of the
 * wall clock (set by hand, or by NTP at boot) is seen within a second, and the stores take a clock that
 * steps back as they take Redis's {@code TIME} stepping back.
 */
final class WallClock implements MicrosClock {

    static final long RESYNC_NANOS = 1_000_000_000L;

    /** The wall clock's microseconds minus the monotonic clock's, as read at {@code nanos}. */
    private record Offset(long nanos, long micros) {}

    private volatile Offset offset = read(System.nanoTime());

    @Override
    public long nowMicros() {
        long nanos = System.nanoTime();
        Offset o = offset;
        if (nanos - o.nanos() >= RESYNC_NANOS) {
            o = read(nanos);
            offset = o;
        }
        return o.micros() + Math.floorDiv(nanos, 1000);
    }

    private static Offset read(long nanos) {
        Instant now = Instant.now();
        return new Offset(nanos, now.getEpochSecond() * 1_000_000 + now.getNano() / 1000 - Math.floorDiv(nanos, 1000));
    }
}
