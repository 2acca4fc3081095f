package dev.tollgate.internal.redis;

import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.RedisSentinelClient;
import redis.clients.jedis.providers.ClusterConnectionProvider;

/**
 * Builds the Jedis client from {@link RedisSettings}, with every wait bounded by the budget: a pooled
 * {@link RedisClient} for one server, a {@link RedisClusterClient} for a cluster, a {@link
 * RedisSentinelClient} for a Sentinel-watched master. The rest of Tollgate sees only the {@link RedisLink}.
 */
public final class RedisClients {

    /**
     * Cluster: one redirect (MOVED/ASK) or one retry on a broken connection; more would be more budgets
     * spent on a worker while the caller has long had its degraded decision.
     */
    static final int CLUSTER_MAX_ATTEMPTS = 2;

    private RedisClients() {}

    /** A pooled client for the deployment {@code settings} names; the caller closes it. */
    public static RedisLink create(RedisSettings settings) {
        return RedisLink.lazy(() -> build(settings), settings.safeUrl());
    }

    private static RedisLink.Built build(RedisSettings settings) {
        return switch (settings.url().kind()) {
            case STANDALONE -> RedisLink.Built.single(standalone(settings));
            case CLUSTER -> cluster(settings);
            case SENTINEL -> RedisLink.Built.single(sentinel(settings));
        };
    }

    private static RedisClient standalone(RedisSettings settings) {
        return RedisClient.builder()
                .hostAndPort(hostAndPort(settings.url().nodes().get(0)))
                .clientConfig(clientConfig(settings))
                .poolConfig(poolConfig(settings))
                .build();
    }

    private static RedisLink.Built cluster(RedisSettings settings) {
        // Our own provider, so that Tollgate can ask it which master owns a slot (one breaker each).
        ClusterConnectionProvider provider = new ClusterConnectionProvider(
                hostAndPorts(settings.url()), clientConfig(settings), poolConfig(settings));
        // A timed-out attempt is never repeated: it ends at or after the retry deadline (the I/O timeout,
        // not the whole budget: a repeat started before the budget ran out would hold the worker past it,
        // and the breaker would count the failure only after the next check went through), and the
        // executor stops there. Redis may yet run a timed-out script, so a repeat could spend twice.
        RedisClusterClient client = RedisClusterClient.builder()
                .nodes(hostAndPorts(settings.url()))
                .connectionProvider(provider)
                .clientConfig(clientConfig(settings))
                .poolConfig(poolConfig(settings))
                .maxAttempts(CLUSTER_MAX_ATTEMPTS)
                .maxTotalRetriesDuration(Duration.ofMillis(ioTimeoutMillis(settings.budget())))
                .build();
        return new RedisLink.Built(client, slot -> String.valueOf(provider.getNode(slot)));
    }

    private static RedisSentinelClient sentinel(RedisSettings settings) {
        return RedisSentinelClient.builder()
                .masterName(settings.url().masterName())
                .sentinels(hostAndPorts(settings.url()))
                .clientConfig(clientConfig(settings))
                .sentinelClientConfig(sentinelConfig(settings))
                .poolConfig(poolConfig(settings))
                .build();
    }

    // ssl(boolean) is deprecated for sslOptions(...), but is the one form that keeps the JDK's default
    // trust store and hostname checks unchanged (RedisTlsTest proves both); a replacement must pass it.
    @SuppressWarnings("deprecation")
    static JedisClientConfig clientConfig(RedisSettings settings) {
        RedisUrl url = settings.url();
        DefaultJedisClientConfig.Builder config = timeouts(settings.budget())
                .clientName("tollgate")
                .ssl(url.tls())
                .database(url.database());
        if (url.password() != null) {
            config.user(url.user()).password(url.password());
        }
        return config.build();
    }

    /** Sentinels are asked without the master's credentials; they are told only where the master is. */
    @SuppressWarnings("deprecation")
    static JedisClientConfig sentinelConfig(RedisSettings settings) {
        return timeouts(settings.budget())
                .clientName("tollgate-sentinel")
                .ssl(settings.url().tls())
                .build();
    }

    /**
     * Connect and read give up at 90% of the budget: the worker's call then fails before the waiting
     * request gives up on it, so the breaker has counted that failure before the next check starts.
     * Given the whole budget, a hung Redis let a fourth check through a threshold of three (measured).
     *
     * <p>The protocol is RESP2, chosen rather than negotiated: the protocol every Redis (and proxy) speaks
     * until told otherwise, so no connection sends {@code HELLO} (which Redis before 6 does not know),
     * and Jedis logs no negotiation warning.
     */
    private static DefaultJedisClientConfig.Builder timeouts(Duration budget) {
        int millis = ioTimeoutMillis(budget);
        return DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis)
                .socketTimeoutMillis(millis)
                .autoNegotiateProtocol(false);
    }

    static int ioTimeoutMillis(Duration budget) {
        long ms = budget.toMillis();
        return Math.toIntExact(Math.max(1, ms - Math.max(1, ms / 10)));
    }

    static GenericObjectPoolConfig<Connection> poolConfig(RedisSettings settings) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        // Two more than the workers use, each subscribed for as long as the application runs: the release
        // notices waiting locks listen to, and operators' resets (engine.Administration).
        pool.setMaxTotal(settings.poolSize() + 2);
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        // Waiting for a free connection is part of the same budget; nothing queues behind a hung Redis.
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.budget());
        pool.setTestOnBorrow(false);
        pool.setTestWhileIdle(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    private static Set<HostAndPort> hostAndPorts(RedisUrl url) {
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        url.nodes().forEach(n -> nodes.add(hostAndPort(n)));
        return nodes;
    }

    private static HostAndPort hostAndPort(RedisUrl.Node node) {
        return new HostAndPort(node.host(), node.port());
    }
}
