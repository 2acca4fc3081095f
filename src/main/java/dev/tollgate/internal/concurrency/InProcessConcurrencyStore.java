package dev.tollgate.internal.concurrency;

import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.core.MicrosClock;
import java.util.HashMap;
import java.util.Map;

/**
 * Leases in this JVM's memory, with the same contract as {@link RedisConcurrencyStore}: they limit the
 * calls of this server only, so two servers each admit {@code maxInFlight}.
 */
public final class InProcessConcurrencyStore implements ConcurrencyStore {

    private final ExpiringMap<Leases> leases;

    public InProcessConcurrencyStore(MicrosClock clock) {
        this.leases = new ExpiringMap<>(clock, Leases::lastExpiry);
    }

    /** One key's leases: id to expiry (us); replaced, never changed, under the map's lock for the key. */
    private record Leases(Map<String, Long> expiries) {
        long lastExpiry() {
            return expiries.values().stream().mapToLong(Long::longValue).max().orElse(0);
        }

        Leases live(long now) {
            Map<String, Long> live = new HashMap<>();
            expiries.forEach((id, at) -> {
                if (at > now) {
                    live.put(id, at);
                }
            });
            return new Leases(live);
        }

        Leases with(String id, long expiresAt) {
            Map<String, Long> next = new HashMap<>(expiries);
            next.put(id, expiresAt);
            return new Leases(next);
        }

        Leases without(String id) {
            Map<String, Long> next = new HashMap<>(expiries);
            next.remove(id);
            return next.isEmpty() ? null : new Leases(next);
        }
    }

    @Override
    public Taking take(ConcurrencySpec spec, String storeKey, String leaseId) {
        return leases.update(storeKey, (held, now) -> {
            Leases live = held == null ? new Leases(Map.of()) : held.live(now);
            int n = live.expiries().size();
            if (n >= spec.maxInFlight()) {
                return new ExpiringMap.Updated<>(n == 0 ? null : live, new Taking(false, n));
            }
            return new ExpiringMap.Updated<>(
                    live.with(leaseId, now + spec.leaseMillis() * 1000), new Taking(true, n + 1L));
        });
    }

    @Override
    public boolean renew(ConcurrencySpec spec, String storeKey, String leaseId) {
        return leases.update(storeKey, (held, now) -> {
            Leases live = held == null ? null : held.live(now);
            if (live == null || !live.expiries().containsKey(leaseId)) {
                return new ExpiringMap.Updated<>(live == null || live.expiries().isEmpty() ? null : live, false);
            }
            return new ExpiringMap.Updated<>(live.with(leaseId, now + spec.leaseMillis() * 1000), true);
        });
    }

    @Override
    public void release(String storeKey, String leaseId) {
        leases.update(
                storeKey, (held, now) -> new ExpiringMap.Updated<>(held == null ? null : held.without(leaseId), true));
    }

    @Override
    public void close() {
        leases.clear();
    }
}
