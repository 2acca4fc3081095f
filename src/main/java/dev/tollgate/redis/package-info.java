/**
 * The one seam to Redis: the URL ({@link dev.tollgate.redis.RedisUrl}), the Jedis clients built from it
 * ({@link dev.tollgate.redis.RedisClients}), {@link dev.tollgate.redis.RedisLink} (scripts in, replies
 * out), {@link dev.tollgate.redis.LuaScript} (the scripts are resources beside these classes) and
 * {@link dev.tollgate.redis.KeyPrefix} (what every key and channel starts with; the key families are
 * named where they are built: {@code StoreKeys}, {@code LockNames}, {@code CounterNames}).
 *
 * <p>Uses {@code core} and Jedis; nothing else of Tollgate. Internal.
 */
package dev.tollgate.redis;
