package dev.tollgate.internal.engine;

import dev.tollgate.internal.guard.BoundedCaller;
import dev.tollgate.internal.guard.RedisGuard;
import dev.tollgate.internal.guard.ShardedGuard;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisLink;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A {@link RedisGuard} for a {@link RedisLink}. Its probe reloads every script and then runs one,
 * so the first request after an outage finds the script cache warm.
 *
 * <p>Each probe asks on another of {@value #PROBE_SLOTS} keys ({@code tollgate:{probe}}, {@code
 * tollgate:{probe-1}}, ..., under the key prefix), which hash to slots spread over a cluster: a dead
 * master then holds up at most the probes that land on it, not every probe until it is back.
 */
public final class RedisGuards {

    static final int PROBE_SLOTS = 16;

    private static final LuaScript PROBE = LuaScript.named("probe");
    private static final AtomicInteger NEXT = new AtomicInteger();

    private RedisGuards() {}

    public static RedisGuard forLink(RedisLink link, BoundedCaller caller, Duration probeInterval, KeyPrefix prefix) {
        return new RedisGuard(caller, () -> probe(link, prefix), probeInterval, link.description(), System::nanoTime);
    }

    /**
     * For a cluster: a guard per master, each with its own caller (so its own breaker) and a probe
     * that asks that master, on a key it owns.
     */
    public static ShardedGuard perMaster(
            RedisLink link, Supplier<BoundedCaller> callers, Duration probeInterval, KeyPrefix prefix) {
        return new ShardedGuard(
                link::masterOf,
                master -> new RedisGuard(
                        callers.get(),
                        () -> probeMaster(link, master, prefix),
                        probeInterval,
                        link.description() + " (master " + master + ")",
                        System::nanoTime));
    }

    private static Object probeMaster(RedisLink link, String master, KeyPrefix prefix) {
        link.loadScripts();
        return link.eval(PROBE, List.of(probeKeyOn(link, master, prefix)), List.of());
    }

    /** A probe key that {@code master} owns now; any probe key while the topology is unknown. */
    static String probeKeyOn(RedisLink link, String master, KeyPrefix prefix) {
        for (int n = 0; n < 16_384; n++) {
            if (link.masterOf(probeKey(prefix, n)).equals(master)) {
                return probeKey(prefix, n);
            }
        }
        return probeKey(prefix, 0);
    }

    /** What the background probe asks; exposed for tests. */
    public static Object probe(RedisLink link) {
        return probe(link, KeyPrefix.NONE);
    }

    static Object probe(RedisLink link, KeyPrefix prefix) {
        // The probe runs while the breaker is open: the idle connections made before the outage are suspect.
        link.dropIdleConnections();
        link.loadScripts();
        return link.eval(
                PROBE, List.of(probeKey(prefix, Math.floorMod(NEXT.getAndIncrement(), PROBE_SLOTS))), List.of());
    }

    /** The probe's {@code n}th key under {@code prefix}: {@code [<key prefix>]tollgate:{probe-<n>}}. */
    static String probeKey(KeyPrefix prefix, int n) {
        return prefix.apply(n == 0 ? "tollgate:{probe}" : "tollgate:{probe-" + n + "}");
    }
}
