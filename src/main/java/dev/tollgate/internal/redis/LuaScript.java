package dev.tollgate.internal.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisNoScriptException;

/**
 * A Lua script from this package's resources, run with {@code EVALSHA}. Its SHA-1 is computed here, so
 * nothing is loaded up front; when Redis has lost it ({@code NOSCRIPT}: a restart, {@code SCRIPT
 * FLUSH}, a new cluster master) the call is repeated once with {@code EVAL}, which runs it and caches
 * it again on that node. No decision fails because a script cache was lost. Run through {@link
 * RedisCommands#eval}.
 */
public final class LuaScript {

    private static final Set<LuaScript> ALL = new CopyOnWriteArraySet<>();

    /** Builds the commands (RESP2, as every Tollgate connection speaks); holds no per-call state. */
    private static final CommandObjects COMMANDS = new CommandObjects(RedisProtocol.RESP2);

    private final String name;
    private final String source;
    private final String sha1;

    private LuaScript(String name, String source) {
        this.name = name;
        this.source = source;
        this.sha1 = sha1(source);
    }

    /**
     * Reads {@code dev/tollgate/internal/redis/<name>.lua} from the class path. A line {@code -- #include <part>}
     * is replaced by {@code <part>.lua} (functions several scripts share, such as the operator's rules).
     */
    public static LuaScript named(String name) {
        LuaScript script = new LuaScript(
                name,
                INCLUDE.matcher(resource(name))
                        .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(resource(m.group(1)))));
        ALL.add(script);
        return script;
    }

    private static final java.util.regex.Pattern INCLUDE =
            java.util.regex.Pattern.compile("(?m)^-- #include ([a-z-]+)\\n");

    private static String resource(String name) {
        String resource = name + ".lua";
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource dev/tollgate/internal/redis/" + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + resource, e);
        }
    }

    /** Runs the script on the node that owns {@code keys}: one round trip, two after a lost cache. */
    Object run(UnifiedJedis redis, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(sha1, keys, args);
        } catch (JedisNoScriptException e) {
            return redis.eval(source, keys, args);
        }
    }

    /** The same on one connection: the caller's own, lent by the pool ({@code PooledLane}). */
    Object run(Connection connection, List<String> keys, List<String> args) {
        try {
            return connection.executeCommand(COMMANDS.evalsha(sha1, keys, args));
        } catch (JedisNoScriptException e) {
            return connection.executeCommand(COMMANDS.eval(source, keys, args));
        }
    }

    /**
     * The same on the caller's leased connection, or in a batch another caller writes at the same time
     * ({@link AutoPipeline}), returning by {@code deadlineNanos}.
     */
    Object run(Connection connection, AutoPipeline pipeline, long deadlineNanos, List<String> keys, List<String> args) {
        try {
            return pipeline.run(connection, COMMANDS.evalsha(sha1, keys, args), deadlineNanos);
        } catch (JedisNoScriptException e) {
            return connection.executeCommand(COMMANDS.eval(source, keys, args));
        }
    }

    /** Every script loaded so far, for reloading them all after Redis lost its cache. */
    static Set<LuaScript> all() {
        return ALL;
    }

    public String name() {
        return name;
    }

    public String sha1() {
        return sha1;
    }

    public String source() {
        return source;
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JVM", e);
        }
    }
}
