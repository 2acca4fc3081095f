package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.internal.core.ExpiringMap;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Keys the store denied, held in this JVM until their retry-after has passed, so a client that keeps
 * calling on an exhausted key is answered here and costs Redis nothing. Exact: nothing but time adds
 * tokens to a bucket (or makes room in a window), so no call could pass before the retry-after, and the
 * hold starts when the call was sent, before Redis decided. What else adds tokens (an operator's reset
 * or credit, settings changed while running) must {@link #forget} the key on every server.
 *
 * <p>Bounded: at most {@code maxKeys} keys, the oldest evicted first (an evicted key is asked of Redis
 * again, which answers as before). A denial that never ends (a spent quota) is not held: only an
 * operator's reset ends it, and a server that missed the reset would deny forever.
 */
public final class DeniedCache {

    private record Held(long untilMicros, long fullAtMicros, long remaining) {}

    private final ExpiringMap<Held> held;
    private final LongSupplier micros;

    private DeniedCache(int maxKeys, LongSupplier nanoTime) {
        this.micros = () -> nanoTime.getAsLong() / 1000;
        this.held = new ExpiringMap<>(micros::getAsLong, Held::untilMicros, maxKeys, h -> 1);
    }

    /** A cache of at most {@code maxKeys} keys on a monotonic clock. */
    public static DeniedCache of(int maxKeys, LongSupplier nanoTime) {
        if (maxKeys < 1) {
            throw new IllegalArgumentException("maxKeys must be >= 1, but was " + maxKeys);
        }
        return new DeniedCache(maxKeys, nanoTime);
    }

    /** The denial of {@code storeKey} while it holds, with the time left until its retry-after. */
    Optional<Decision> denial(String storeKey) {
        long now = micros.getAsLong();
        return held.get(storeKey)
                .map(h -> new Decision(
                        false,
                        h.remaining(),
                        micros(h.untilMicros() - now),
                        h.fullAtMicros() < 0 ? Decision.NEVER : micros(Math.max(0, h.fullAtMicros() - now)),
                        false));
    }

    /** Holds {@code denied} (a store's denial of a call sent at {@code sentMicros}) until its retry-after. */
    void hold(String storeKey, long sentNanos, Decision denied) {
        if (denied.allowed() || denied.degraded() || denied.retryAfter().equals(Decision.NEVER)) {
            return;
        }
        long sent = sentNanos / 1000;
        long until = sent + denied.retryAfter().toNanos() / 1000;
        if (until <= micros.getAsLong()) {
            return;
        }
        long fullAt = denied.resetAfter().equals(Decision.NEVER)
                ? -1
                : sent + denied.resetAfter().toNanos() / 1000;
        held.update(
                storeKey, (live, now) -> new ExpiringMap.Updated<>(new Held(until, fullAt, denied.remaining()), null));
    }

    /** Forgets {@code storeKey}: the next call asks the store. */
    public void forget(String storeKey) {
        held.update(storeKey, (live, now) -> new ExpiringMap.Updated<>(null, null));
    }

    /** Forgets every key. */
    public void clear() {
        held.clear();
    }

    /** Keys held, some perhaps expired. */
    public int size() {
        return held.size();
    }

    private static Duration micros(long m) {
        return Duration.of(Math.max(1, m), ChronoUnit.MICROS);
    }
}
