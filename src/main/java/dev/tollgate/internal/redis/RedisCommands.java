package dev.tollgate.internal.redis;

import java.util.List;

/**
 * What the stores send to Redis: scripts, and the few plain commands a store needs beside them. Replies
 * are plain Java values; every failure is a {@link RedisException}. {@link RedisLink} implements it over
 * Jedis, with its pipelining, its retry of a broken connection and the cluster's slot routing.
 */
public interface RedisCommands {

    /**
     * Runs {@code script} on the node that owns {@code keys} ({@code EVALSHA}, {@code EVAL} once when the
     * node lost its script cache).
     *
     * @return the script's reply: a {@link Long} for an integer, a {@link String} for a string, {@code
     *     null} for a nil, and a {@code List<Object>} of those for a table
     */
    Object eval(LuaScript script, List<String> keys, List<String> args);

    /** {@code PUBLISH}: how many subscribers received {@code message}. */
    long publish(String channel, String message);

    /** {@code GET}: the value of {@code key}, or null. */
    String get(String key);

    /** {@code DEL}: whether {@code key} existed. */
    boolean del(String key);

    /** {@code ZREVRANGE key start stop WITHSCORES}: the members, highest score first. */
    List<Scored> zrevrangeWithScores(String key, long start, long stop);

    /** A sorted set's member and its score. */
    record Scored(String member, double score) {}
}
