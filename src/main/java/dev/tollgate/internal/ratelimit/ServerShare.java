package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ServerCount;
import java.util.EnumMap;
import java.util.Map;

/**
 * An in-process store that decides for one of the live servers ({@code tollgate.local-fallback-servers=auto}):
 * each policy it is given, a limit's whole local share, is divided by the live count as last learned
 * ({@link LimitSpec#localShare}), so the servers together admit about the limit while each decides alone.
 * During an outage the count is the one learned before it.
 */
public final class ServerShare implements RateLimitStore {

    private final RateLimitStore local;
    private final Algorithm algorithm;
    private final ServerCount servers;

    private ServerShare(RateLimitStore local, Algorithm algorithm, ServerCount servers) {
        this.local = local;
        this.algorithm = algorithm;
        this.servers = servers;
    }

    /** Each of {@code stores} deciding for one of {@code servers}; the stores stay the caller's to close. */
    public static Map<Algorithm, RateLimitStore> of(Map<Algorithm, RateLimitStore> stores, ServerCount servers) {
        if (stores.isEmpty()) {
            return stores;
        }
        Map<Algorithm, RateLimitStore> shared = new EnumMap<>(Algorithm.class);
        stores.forEach((a, s) -> shared.put(a, new ServerShare(s, a, servers)));
        return shared;
    }

    private LimitPolicy share(LimitPolicy whole) {
        int n = servers.live();
        return n <= 1 ? whole : LimitSpec.localShare(whole, algorithm, n);
    }

    @Override
    public Decision tryConsume(LimitPolicy policy, String storeKey) {
        return local.tryConsume(share(policy), storeKey);
    }

    @Override
    public boolean forget(String storeKey) {
        return local.forget(storeKey);
    }

    @Override
    public void refund(LimitPolicy policy, String storeKey, long mark) {
        local.refund(share(policy), storeKey, mark);
    }

    /** The stores are the caller's: closed where they were made. */
    @Override
    public void close() {}
}
