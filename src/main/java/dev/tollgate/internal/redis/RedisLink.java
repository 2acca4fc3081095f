package dev.tollgate.internal.redis;

import java.net.SocketTimeoutException;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.util.JedisClusterCRC16;
import redis.clients.jedis.util.Pool;

/**
 * The one seam between Tollgate and Redis: scripts in, replies out ({@link RedisCommands}), and what the
 * guard needs besides (the probe's script loading, a cluster's masters, the caller's-thread lane).
 * Everything else in Tollgate talks to Redis through here, whatever the deployment behind the Jedis
 * client, which never leaves this package: a failure leaves as {@link RedisException}.
 *
 * <p>A connection that broke without timing out (the server restarted, a reset) is retried once on a
 * fresh connection, after the idle ones are dropped: they all point at the old process. For a Sentinel
 * client those are the current master's idle connections. On the caller's thread ({@link PooledLane})
 * the retry has what is left of the call's budget: it waits for a full pool's connection, and reads,
 * no longer than that. A cluster client is not retried here: its
 * executor already makes one more attempt (after a redirect or a broken connection) within the budget.
 * A timeout is never retried, since the server may yet run the command.
 *
 * <p>The client is built on first use, not before: a cluster or Sentinel client connects while it is
 * built, and a Redis that is down when the application starts must cost degraded decisions, not the
 * deployment. A failed build is tried again on the next call (which, once the breaker is open, is the
 * background probe's).
 */
public final class RedisLink implements RedisCommands, AutoCloseable {

    /** Builds the commands sent on a cluster node's own connection (RESP2, as every Tollgate connection). */
    private final Supplier<Built> factory;

    private final String description;
    private final ThreadLocal<Pinned> pinned = new ThreadLocal<>();
    /** Scripts run at the same time on the callers' leased connections, batched into one write. */
    private final AutoPipeline pipeline = new AutoPipeline();

    private volatile Client client;

    /**
     * The connection {@link PooledLane} lent this thread's call, the lane and when the call's budget ends
     * (for a retry), and a client over the connection made on demand.
     */
    private static final class Pinned {
        final Connection connection;
        final PooledLane lane;
        final long deadlineNanos;
        UnifiedJedis jedis;

        Pinned(Connection connection, PooledLane lane, long deadlineNanos) {
            this.connection = connection;
            this.lane = lane;
            this.deadlineNanos = deadlineNanos;
        }

        UnifiedJedis jedis() {
            if (jedis == null) {
                jedis = new UnifiedJedis(connection) {}; // never closed: the lane returns the connection
            }
            return jedis;
        }
    }

    /**
     * A client as built: the Jedis client, and for a cluster which master owns a slot.
     *
     * @param masterOfSlot the {@code host:port} owning a slot; for one server always {@code ""}
     */
    record Built(UnifiedJedis jedis, IntFunction<String> masterOfSlot) {

        /** A client of one server (or of whichever master Sentinel names). */
        static Built single(UnifiedJedis jedis) {
            return new Built(jedis, slot -> "");
        }
    }

    /** A built client and how to retry a broken connection on it (null: do not). */
    private record Client(Built built, Runnable dropIdleConnections) {

        UnifiedJedis jedis() {
            return built.jedis();
        }
    }

    private RedisLink(Supplier<Built> factory, String description) {
        this.factory = factory;
        this.description = description;
    }

    /** Wraps a client the caller built (tests and tools that build their own Jedis client). */
    public static RedisLink of(UnifiedJedis jedis, String description) {
        return new RedisLink(() -> Built.single(jedis), description);
    }

    /** A link whose client {@code factory} builds on first use. */
    static RedisLink lazy(Supplier<Built> factory, String description) {
        return new RedisLink(factory, description);
    }

    /** The master that owns {@code key}: {@code host:port} in a cluster, {@code ""} otherwise. */
    public String masterOf(String key) {
        try {
            return client().built().masterOfSlot().apply(JedisClusterCRC16.getSlot(key));
        } catch (JedisException e) {
            throw new RedisException(e);
        }
    }

    private Client client() {
        Client c = client;
        if (c == null) {
            synchronized (this) {
                c = client;
                if (c == null) {
                    try {
                        Built built = factory.get();
                        c = new Client(built, retryFor(built.jedis()));
                    } catch (RuntimeException e) {
                        throw e instanceof JedisException je
                                ? je
                                : new JedisConnectionException("cannot build the client for " + description, e);
                    }
                    client = c;
                }
            }
        }
        return c;
    }

    /** How a broken connection is retried, by the client's kind. */
    private static Runnable retryFor(UnifiedJedis jedis) {
        Runnable drop;
        if (jedis instanceof RedisClient client) {
            drop = () -> client.getPool().clear();
        } else if (jedis instanceof RedisSentinelClient client) {
            drop = () -> client.getPrimaryNodesConnectionMap().values().forEach(Pool::clear);
        } else if (jedis instanceof RedisClusterClient) {
            drop = null;
        } else {
            drop = () -> {};
        }
        return drop;
    }

    /**
     * Drops the idle pooled connections (a single Redis or a Sentinel's master; not a cluster's, whose
     * executor retries on its own): after an outage they may lead to a process or a path that is gone and
     * never answers, and each would cost a call its budget before it is found out.
     */
    public void dropIdleConnections() {
        Client c = client;
        if (c != null && c.dropIdleConnections() != null) {
            c.dropIdleConnections().run();
        }
    }

    @Override
    public Object eval(LuaScript script, List<String> keys, List<String> args) {
        try {
            return run(script, keys, args);
        } catch (JedisException e) {
            throw new RedisException(e);
        }
    }

    private Object run(LuaScript script, List<String> keys, List<String> args) {
        Client c = client();
        Pinned pin = pinned.get();
        try {
            return pin != null
                    ? script.run(pin.connection, pipeline, pin.deadlineNanos, keys, args)
                    : script.run(c.jedis(), keys, args);
        } catch (JedisConnectionException e) {
            if (c.dropIdleConnections() == null || timedOut(e)) {
                throw e;
            }
            c.dropIdleConnections().run();
            if (pin != null) {
                // On the caller's thread the retry has what is left of the budget, not a budget of its own.
                return pin.lane.retryWithin(pin.deadlineNanos, e, fresh -> script.run(fresh, keys, args));
            }
            return script.run(c.jedis(), keys, args);
        }
    }

    /**
     * Runs calls on the caller's thread when one server's pooled connection is idle ({@link PooledLane});
     * a cluster's or Sentinel's calls go to the workers.
     */
    public dev.tollgate.internal.core.DirectLane lane() {
        return new PooledLane(this);
    }

    /** The commands sent so far in a write that carried more than one ({@link AutoPipeline}). */
    long pipelined() {
        return pipeline.sentTogether();
    }

    /** The pool of a client of one server once built; null for a cluster, a Sentinel or before the build. */
    Pool<Connection> builtPool() {
        Client c = client;
        return c != null && c.jedis() instanceof RedisClient single ? single.getPool() : null;
    }

    /** Runs {@code call} with this link's commands on {@code connection}, on this thread, until {@code deadlineNanos}. */
    <T> T pinned(Connection connection, PooledLane lane, long deadlineNanos, java.util.concurrent.Callable<T> call)
            throws Exception {
        pinned.set(new Pinned(connection, lane, deadlineNanos));
        try {
            return call.call();
        } finally {
            pinned.remove();
        }
    }

    /** The client for this thread's call: over the lent connection while one is pinned. */
    UnifiedJedis current() {
        Pinned pin = pinned.get();
        return pin != null ? pin.jedis() : client().jedis();
    }

    @Override
    public long publish(String channel, String message) {
        return answer(() -> current().publish(channel, message));
    }

    @Override
    public String get(String key) {
        return answer(() -> current().get(key));
    }

    @Override
    public boolean del(String key) {
        return answer(() -> current().del(key)) > 0;
    }

    @Override
    public List<Scored> zrevrangeWithScores(String key, long start, long stop) {
        return answer(() -> current().zrevrangeWithScores(key, start, stop).stream()
                .map(t -> new Scored(t.getElement(), t.getScore()))
                .toList());
    }

    /** Every key matching {@code pattern}: a {@code SCAN} of the server, or of every node of a cluster. */
    public java.util.Set<String> keysMatching(String pattern) {
        return answer(() -> EveryNode.scan(current(), pattern));
    }

    /** {@code HGETALL key}: empty when there is no such hash. */
    public java.util.Map<String, String> hgetAll(String key) {
        return answer(() -> current().hgetAll(key));
    }

    /** {@code PING}: whether Redis answers at all. */
    public boolean ping() {
        return answer(() -> "PONG".equals(current().ping()));
    }

    /** {@code call}'s value; a failure of the client's as {@link RedisException}. */
    private static <T> T answer(Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            throw new RedisException(e);
        }
    }

    /**
     * {@code SCRIPT LOAD}s every script Tollgate uses, so no request pays for a cache Redis lost: in one
     * write and one read of the replies (a round trip, not one per script: the probe that runs this must
     * finish within the budget on a loaded server too). A cluster keeps one script cache per node: there
     * every node is loaded ({@link EveryNode#loadScripts}).
     */
    public void loadScripts() {
        try {
            Pinned pin = pinned.get();
            if (pin != null) {
                EveryNode.loadScripts(pin.connection);
            } else {
                EveryNode.loadScripts(client().jedis());
            }
        } catch (JedisException e) {
            throw new RedisException(e);
        }
    }

    /**
     * {@code INFO <section>} of every node that answers: the server itself, Sentinel's current master,
     * or each node of a cluster (one that cannot be reached is left out).
     */
    public List<String> info(String section) {
        return answer(() -> EveryNode.info(current(), section));
    }

    /** Where it points, with any password masked. */
    public String description() {
        return description;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.jedis().close();
        }
    }

    /**
     * Whether {@code e} is a read or a connect that ran out of time. Jedis reports a connect that timed out
     * as a suppressed exception of its "Failed to connect" (one per address it tried), not as its cause.
     */
    static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
            for (Throwable s : t.getSuppressed()) {
                if (s instanceof SocketTimeoutException) {
                    return true;
                }
            }
        }
        return false;
    }
}
