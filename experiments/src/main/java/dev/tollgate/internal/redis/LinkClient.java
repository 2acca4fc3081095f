package dev.tollgate.internal.redis;

import redis.clients.jedis.UnifiedJedis;

/**
 * The experiments' one window onto a {@link RedisLink}'s Jedis client, so their raw baselines (a raw
 * {@code EVALSHA}, {@code PING}, Bucket4j, the naive check) run on Tollgate's own pool. It lives in the
 * experiments, in this package to read what the library keeps to it: the library has no such window.
 */
public final class LinkClient {

    private LinkClient() {}

    /** The client {@code link} sends its commands on. */
    public static UnifiedJedis of(RedisLink link) {
        return link.current();
    }
}
