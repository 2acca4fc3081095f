package dev.tollgate;

import java.time.LocalDate;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What one client spent under a limit that keeps usage ({@code tollgate.limits.<name>.usage-days}),
 * per UTC day of Redis's clock, over the days asked for: what a billing run reads ({@link
 * RateLimitAdmin#usage}).
 *
 * @param client the client key as the limit normalised it (an API key, a user name, an address)
 * @param units what the client spent in those days, in the limit's units (each call's cost; refunds and
 *     settled costs included)
 * @param days the units of each day with any, oldest first
 */
public record ClientUsage(String client, long units, SortedMap<LocalDate, Long> days) {

    public ClientUsage {
        if (client == null || days == null) {
            throw new IllegalArgumentException("client and days are required");
        }
        days = Collections.unmodifiableSortedMap(new TreeMap<>(days));
        long sum = days.values().stream().mapToLong(Long::longValue).sum();
        if (units != sum) {
            throw new IllegalArgumentException("units must be the days' sum " + sum + ", but was " + units);
        }
    }

    /** The usage of {@code client} made of {@code days}. */
    public static ClientUsage of(String client, SortedMap<LocalDate, Long> days) {
        return new ClientUsage(
                client, days.values().stream().mapToLong(Long::longValue).sum(), days);
    }
}
