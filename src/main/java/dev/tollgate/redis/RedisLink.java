package dev.tollgate.redis;

import java.net.SocketTimeoutException;
import java.util.List;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;

/**
 * The one seam between Tollgate and Redis: scripts in, replies out. Everything else in Tollgate talks
 * to Redis through here, whatever the deployment behind the Jedis client.
 *
 * <p>A connection that broke without timing out (the server restarted, a reset) is retried once on a
 * fresh connection, after the idle ones are dropped: they all point at the old process. A timeout is
 * never retried, since the server may yet run the command.
 */
public final class RedisLink implements AutoCloseable {

    private final UnifiedJedis jedis;
    private final Runnable dropIdleConnections;
    private final String description;

    RedisLink(UnifiedJedis jedis, Runnable dropIdleConnections, String description) {
        this.jedis = jedis;
        this.dropIdleConnections = dropIdleConnections;
        this.description = description;
    }

    /** Wraps a client the caller built; for a {@link RedisClient} stale idle connections are dropped on failure. */
    public static RedisLink of(UnifiedJedis jedis, String description) {
        Runnable drop =
                jedis instanceof RedisClient client ? () -> client.getPool().clear() : () -> {};
        return new RedisLink(jedis, drop, description);
    }

    /** Runs {@code script} on the node that owns {@code keys}. */
    public Object eval(LuaScript script, List<String> keys, List<String> args) {
        try {
            return script.run(jedis, keys, args);
        } catch (JedisConnectionException e) {
            if (timedOut(e)) {
                throw e;
            }
            dropIdleConnections.run();
            return script.run(jedis, keys, args);
        }
    }

    /** {@code PING}: whether Redis answers at all. */
    public boolean ping() {
        return "PONG".equals(jedis.ping());
    }

    /** {@code SCRIPT LOAD}s every script Tollgate uses, so no request pays for a cache Redis lost. */
    public void loadScripts() {
        for (LuaScript script : LuaScript.all()) {
            jedis.scriptLoad(script.source());
        }
    }

    /** The Jedis client, for callers that need a command this seam does not offer. */
    public UnifiedJedis jedis() {
        return jedis;
    }

    /** Where it points, with any password masked. */
    public String description() {
        return description;
    }

    @Override
    public void close() {
        jedis.close();
    }

    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
