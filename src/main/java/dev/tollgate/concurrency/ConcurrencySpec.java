package dev.tollgate.concurrency;

import dev.tollgate.ratelimit.KeySpec;
import java.time.Duration;
import java.util.regex.Pattern;

/**
 * A configured concurrency limit: at most {@code maxInFlight} calls per key run at once, across every
 * server sharing the store.
 *
 * @param name letters, digits, {@code _ -}, at most 64 characters; used in keys, metrics and logs
 * @param maxInFlight how many calls per key may run at once; &gt; 0
 * @param key whose calls are counted together
 * @param lease how long a slot outlives its server: a running call renews its lease every lease/3, so
 *     a server that dies frees its slots at most this long after; at least 100 ms
 * @param failOpen the decision when the store cannot be asked: admit ({@code true}) or refuse
 */
public record ConcurrencySpec(String name, long maxInFlight, KeySpec key, Duration lease, boolean failOpen) {

    /** What a concurrency limit's name may be. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The shortest lease: a third of it is how often running calls renew theirs. */
    public static final Duration MIN_LEASE = Duration.ofMillis(100);

    public ConcurrencySpec {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("name must be 1-64 letters, digits, '_' or '-', but was '" + name + "'");
        }
        if (maxInFlight < 1) {
            throw new IllegalArgumentException(
                    "concurrency limit '" + name + "': maxInFlight must be > 0, but was " + maxInFlight);
        }
        if (key == null) {
            throw new IllegalArgumentException("concurrency limit '" + name + "': key must not be null");
        }
        if (lease == null || lease.compareTo(MIN_LEASE) < 0) {
            throw new IllegalArgumentException(
                    "concurrency limit '" + name + "': lease must be at least 100ms, but was " + lease);
        }
    }

    /** {@code maxInFlight} at once for everyone, leases of 10 s, failing open. */
    public static ConcurrencySpec of(String name, long maxInFlight) {
        return new ConcurrencySpec(name, maxInFlight, new KeySpec.Global(), Duration.ofSeconds(10), true);
    }

    /** The lease in whole milliseconds, as Redis takes it. */
    public long leaseMillis() {
        return lease.toMillis();
    }
}
