package dev.tollgate.redis;

import dev.tollgate.guard.BoundedCaller;
import dev.tollgate.guard.RedisGuard;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link RedisGuard} for a {@link RedisLink}. Its probe reloads every script and then runs one,
 * so the first request after an outage finds the script cache warm.
 *
 * <p>Each probe asks on another of {@value #PROBE_SLOTS} keys ({@code tollgate:{probe}}, {@code
 * tollgate:{probe-1}}, ...), which hash to slots spread over a cluster: a dead master then holds up
 * at most the probes that land on it, not every probe until it is back.
 */
public final class RedisGuards {

    static final int PROBE_SLOTS = 16;

    private static final LuaScript PROBE = LuaScript.named("probe");
    private static final AtomicInteger NEXT = new AtomicInteger();

    private RedisGuards() {}

    public static RedisGuard forLink(RedisLink link, BoundedCaller caller, Duration probeInterval) {
        return new RedisGuard(caller, () -> probe(link), probeInterval, link.description(), System::nanoTime);
    }

    /** What the background probe asks; exposed for tests. */
    public static Object probe(RedisLink link) {
        link.loadScripts();
        return link.eval(PROBE, List.of(probeKey(Math.floorMod(NEXT.getAndIncrement(), PROBE_SLOTS))), List.of());
    }

    static String probeKey(int n) {
        return n == 0 ? "tollgate:{probe}" : "tollgate:{probe-" + n + "}";
    }
}
