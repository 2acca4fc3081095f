package dev.tollgate.redis;

import java.net.URI;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.util.JedisURIHelper;

/** Builds the Jedis client from {@link RedisSettings}, with every wait bounded by the budget. */
public final class RedisClients {

    private RedisClients() {}

    /** A pooled client; the caller closes it. */
    public static RedisLink create(RedisSettings settings) {
        URI url = settings.url();
        RedisClient client = RedisClient.builder()
                .hostAndPort(JedisURIHelper.getHostAndPort(url))
                .clientConfig(clientConfig(settings))
                .poolConfig(poolConfig(settings))
                .build();
        return RedisLink.of(client, settings.safeUrl());
    }

    static JedisClientConfig clientConfig(RedisSettings settings) {
        URI url = settings.url();
        int budget = Math.toIntExact(settings.budget().toMillis());
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(budget)
                .socketTimeoutMillis(budget)
                .clientName("tollgate")
                .ssl(JedisURIHelper.isRedisSSLScheme(url))
                .database(JedisURIHelper.getDBIndex(url));
        String password = JedisURIHelper.getPassword(url);
        if (password != null) {
            config.user(JedisURIHelper.getUser(url)).password(password);
        }
        return config.build();
    }

    static GenericObjectPoolConfig<Connection> poolConfig(RedisSettings settings) {
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(settings.poolSize());
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
}
