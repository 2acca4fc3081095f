package dev.tollgate.internal.redis;

import redis.clients.jedis.Protocol;

/**
 * For tests outside this package that need a command the seam does not offer, sent where Tollgate's own
 * would go: on the connection the caller's-thread lane lent this thread's call, if one is pinned. Test
 * code only; nothing in {@code src/main} can reach a Jedis client of a {@link RedisLink}.
 */
public final class OnTheCallersConnection {

    private OnTheCallersConnection() {}

    /** Sends {@code command} with {@code args} and returns Jedis's raw reply. */
    public static Object send(RedisLink link, Protocol.Command command, String... args) {
        return link.current().sendCommand(command, args);
    }
}
