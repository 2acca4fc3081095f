/**
 * The one seam to Redis: the URL ({@link dev.tollgate.internal.redis.RedisUrl}), the Jedis clients built from it
 * ({@link dev.tollgate.internal.redis.RedisClients}), {@link dev.tollgate.internal.redis.RedisCommands} (what the stores
 * send: scripts in, plain Java replies out) implemented by {@link dev.tollgate.internal.redis.RedisLink}, {@link
 * dev.tollgate.internal.redis.LuaScript} (the scripts are resources beside these classes) and {@link
 * dev.tollgate.internal.redis.KeyPrefix} (what every key and channel starts with; the key families are named
 * where they are built: {@code StoreKeys}, {@code LockNames}, {@code CounterNames}).
 *
 * <p>Uses {@code core} and Jedis; nothing else of Tollgate. The only package that names a Jedis type:
 * no Jedis client, reply or exception leaves it (a failure is {@link dev.tollgate.internal.redis.RedisException};
 * {@code LayeringTest} checks it). Internal.
 */
package dev.tollgate.internal.redis;
