/**
 * The one seam to Redis: the URL ({@link dev.tollgate.redis.RedisUrl}), the Jedis clients built from it
 * ({@link dev.tollgate.redis.RedisClients}), {@link dev.tollgate.redis.RedisLink} (scripts in, replies
 * out) and {@link dev.tollgate.redis.LuaScript} (the scripts are resources beside these classes).
 *
 * <p>Uses {@code core} and Jedis; nothing else of Tollgate. Internal.
 */
package dev.tollgate.redis;
