package dev.tollgate.internal.redis;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.CommandArguments;
import redis.clients.jedis.Connection;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.Pool;
import redis.clients.jedis.util.SafeEncoder;

/**
 * {@link RedisLink}'s commands that go to every node of the deployment rather than to the one that owns a
 * key: the probe's {@code SCRIPT LOAD}s and {@code INFO}. A cluster keeps a script cache and a
 * configuration per node.
 */
final class EveryNode {

    private EveryNode() {}

    /**
     * Every script Tollgate uses, {@code SCRIPT LOAD}ed by {@code jedis}: in one write and one read of
     * the replies per node. In a cluster every node (replicas too, so a promoted one starts warm); one
     * that cannot be reached is skipped, since {@code EVAL} reloads its cache on the first call it gets.
     */
    static void loadScripts(UnifiedJedis jedis) {
        if (jedis instanceof RedisClusterClient cluster) {
            cluster.getClusterNodes().values().forEach(EveryNode::loadScriptsOn);
        } else if (jedis instanceof RedisClient single) {
            try (Connection c = single.getPool().getResource()) {
                loadScripts(c);
            }
        } else {
            for (LuaScript script : LuaScript.all()) {
                jedis.scriptLoad(script.source());
            }
        }
    }

    private static void loadScriptsOn(Pool<Connection> node) {
        try (Connection c = node.getResource()) {
            loadScripts(c);
        } catch (JedisException unreachable) {
            // Skipped: this node answers NOSCRIPT once it is back, and the script is EVALed there then.
        }
    }

    /** Every script's {@code SCRIPT LOAD} on {@code c}, pipelined; the first error reply is thrown. */
    static void loadScripts(Connection c) {
        int sent = 0;
        for (LuaScript script : LuaScript.all()) {
            c.sendCommand(new CommandArguments(Protocol.Command.SCRIPT)
                    .add(Protocol.Keyword.LOAD)
                    .add(script.source()));
            sent++;
        }
        for (Object reply : c.getMany(sent)) {
            if (reply instanceof JedisException error) {
                throw error;
            }
        }
    }

    /**
     * {@code INFO <section>} of every node that answers: the server itself, Sentinel's current master,
     * or each node of a cluster (one that cannot be reached is left out).
     */
    static List<String> info(UnifiedJedis jedis, String section) {
        if (!(jedis instanceof RedisClusterClient cluster)) {
            return List.of(jedis.info(section));
        }
        List<String> infos = new ArrayList<>();
        for (Pool<Connection> node : cluster.getClusterNodes().values()) {
            try (Connection c = node.getResource()) {
                Object reply = c.executeCommand(new CommandArguments(Protocol.Command.INFO).add(section));
                infos.add(SafeEncoder.encode((byte[]) reply));
            } catch (JedisConnectionException unreachable) {
                // Left out: the others still say how they are configured.
            }
        }
        return infos;
    }
}
