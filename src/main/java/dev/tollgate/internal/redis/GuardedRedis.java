package dev.tollgate.internal.redis;

import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.core.Guard;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A {@link RedisLink} behind a {@link Guard}: how counters and locks call Redis, so that an outage costs
 * them what it costs a limit. A call the guard refuses, or that Redis fails, throws {@link
 * StoreUnavailableException} saying what did not happen.
 *
 * @param link the client
 * @param guard the budget and breaker; {@link Guard#DIRECT} for none
 */
public record GuardedRedis(RedisLink link, Guard guard) {

    public GuardedRedis {
        if (link == null || guard == null) {
            throw new IllegalArgumentException("link and guard are required");
        }
    }

    /** No guard: each call waits as long as Redis takes. */
    public static GuardedRedis unguarded(RedisLink link) {
        return new GuardedRedis(link, Guard.DIRECT);
    }

    /** Runs {@code script} on {@code keys}; the guard breaks by the first key's server. */
    public Object eval(String what, LuaScript script, List<String> keys, List<String> args) {
        return call(what, keys.get(0), () -> link.eval(script, keys, args));
    }

    /**
     * Runs {@code call}, which touches {@code storeKey}, behind the guard.
     *
     * @param what what the call does, for the exception: {@code "increment counter 'x'"}
     */
    public <T> T call(String what, String storeKey, Callable<T> call) {
        return guard.call(storeKey, () -> {
            try {
                return call.call();
            } catch (RedisException e) {
                throw new StoreUnavailableException("Redis did not " + what, e);
            }
        });
    }
}
