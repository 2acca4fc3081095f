package dev.tollgate.internal.concurrency;

import dev.tollgate.ConfigProblem;
import dev.tollgate.LimitRules;
import dev.tollgate.internal.ratelimit.KeySpec;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A configured concurrency limit: at most {@code maxInFlight} calls per key run at once, across every
 * server sharing the store.
 *
 * @param name letters, digits, {@code _ -}, at most 64 characters; used in keys, metrics and logs
 * @param maxInFlight how many calls per key may run at once ({@link LimitRules#MAX_IN_FLIGHT_RULE})
 * @param key whose calls are counted together
 * @param lease how long a slot outlives its server: a running call renews its lease every lease/3, so
 *     a server that dies frees its slots at most this long after ({@link LimitRules#LEASE_RULE})
 * @param failOpen the decision when the store cannot be asked: admit ({@code true}) or refuse
 */
public record ConcurrencySpec(String name, long maxInFlight, KeySpec key, Duration lease, boolean failOpen) {

    /** What a concurrency limit's name may be ({@link LimitRules#NAME}). */
    public static final Pattern NAME = LimitRules.NAME;

    /** The shortest lease ({@link LimitRules#MIN_LEASE}): a third of it is how often running calls renew theirs. */
    public static final Duration MIN_LEASE = LimitRules.MIN_LEASE;

    public ConcurrencySpec {
        if (!LimitRules.isName(name)) {
            throw new IllegalArgumentException("name must be " + LimitRules.NAME_RULE + ", but was '" + name + "'");
        }
        if (key == null || lease == null) {
            throw new IllegalArgumentException("concurrency limit '" + name + "': key and lease must not be null");
        }
        List<ConfigProblem> problems = LimitRules.checkConcurrency(maxInFlight, lease);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("concurrency limit '" + name + "': "
                    + String.join(
                            "; ", problems.stream().map(p -> p.describe("")).toList()));
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
