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

    /**
     * Every key matching {@code pattern}, by {@code SCAN} to its last page on the server, or on each node
     * of a cluster (a replica's copies fold into its master's: the keys are a set). A node that cannot be
     * reached is left out.
     */
    static java.util.Set<String> scan(UnifiedJedis jedis, String pattern) {
        java.util.Set<String> keys = new java.util.TreeSet<>();
        if (jedis instanceof RedisClusterClient cluster) {
            for (Pool<Connection> node : cluster.getClusterNodes().values()) {
                try (Connection c = node.getResource()) {
                    scan(c, pattern, keys);
                } catch (JedisConnectionException unreachable) {
                    // Left out: its master or replica, if it answers, holds the same keys.
                }
            }
            return keys;
        }
        String cursor = "0";
        do {
            redis.clients.jedis.resps.ScanResult<String> page = jedis.scan(
                    cursor,
                    new redis.clients.jedis.params.ScanParams().match(pattern).count(1000));
            keys.addAll(page.getResult());
            cursor = page.getCursor();
        } while (!"0".equals(cursor));
        return keys;
    }

    private static void scan(Connection c, String pattern, java.util.Set<String> keys) {
        String cursor = "0";
        do {
            List<?> page = (List<?>) c.executeCommand(new CommandArguments(Protocol.Command.SCAN)
                    .add(cursor)
                    .add(Protocol.Keyword.MATCH)
                    .add(pattern)
                    .add(Protocol.Keyword.COUNT)
                    .add(1000));
            cursor = SafeEncoder.encode((byte[]) page.get(0));
            for (Object k : (List<?>) page.get(1)) {
                keys.add(SafeEncoder.encode((byte[]) k));
            }
        } while (!"0".equals(cursor));
    }
}
