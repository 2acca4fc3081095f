package dev.tollgate.internal.redis;

import java.net.URI;
import java.util.List;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * What an application writes instead of Tollgate: one {@code EVALSHA} of a script on a pooled Jedis
 * client built from a URL with Jedis's defaults (no budget, no breaker, no fallback). The demo's {@code GET
 * /demo/by-hand} runs Tollgate's own {@code token-bucket.lua} through it, the baseline that {@code
 * experiments/run http} compares the filter with. Here only because no other package may name Jedis; left
 * out of the library jar with the demo (pom.xml).
 */
public final class HandWrittenEvalsha implements AutoCloseable {

    private final RedisClient client;
    private final LuaScript script;

    private HandWrittenEvalsha(RedisClient client, LuaScript script) {
        this.client = client;
        this.script = script;
    }

    /** A pooled client for {@code url} ({@code redis://host:port}) that runs {@code script}; the caller closes it. */
    public static HandWrittenEvalsha connect(String url, LuaScript script) {
        return new HandWrittenEvalsha(RedisClient.create(URI.create(url)), script);
    }

    /**
     * One {@code EVALSHA} of the script on {@code keys} and {@code args}; whether its reply's first element
     * is 1 (a token bucket's "allowed"). A Redis that lost the script gets it once more with {@code EVAL}.
     */
    public boolean allowed(List<String> keys, List<String> args) {
        Object reply;
        try {
            reply = client.evalsha(script.sha1(), keys, args);
        } catch (JedisNoScriptException e) {
            reply = client.eval(script.source(), keys, args);
        }
        return Long.valueOf(1).equals(((List<?>) reply).get(0));
    }

    @Override
    public void close() {
        client.close();
    }
}
