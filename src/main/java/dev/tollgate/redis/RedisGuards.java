package dev.tollgate.redis;

import dev.tollgate.guard.BoundedCaller;
import dev.tollgate.guard.RedisGuard;
import java.time.Duration;
import java.util.List;

/**
 * A {@link RedisGuard} for a {@link RedisLink}. Its probe reloads every script and then runs one,
 * so the first request after an outage finds the script cache warm.
 */
public final class RedisGuards {

    private static final LuaScript PROBE = LuaScript.named("probe");
    private static final List<String> PROBE_KEY = List.of("tollgate:{probe}");

    private RedisGuards() {}

    public static RedisGuard forLink(RedisLink link, BoundedCaller caller, Duration probeInterval) {
        return new RedisGuard(caller, () -> probe(link), probeInterval, link.description(), System::nanoTime);
    }

    /** What the background probe asks; exposed for tests. */
    public static Object probe(RedisLink link) {
        link.loadScripts();
        return link.eval(PROBE, PROBE_KEY, List.of());
    }
}
