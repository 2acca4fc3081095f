package dev.tollgate.experiments.bench;

import dev.tollgate.LimitPolicy;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.BucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.distributed.serialization.Mapper;
import io.github.bucket4j.redis.jedis.Bucket4jJedis;
import java.time.Duration;
import java.util.List;
import redis.clients.jedis.UnifiedJedis;

/**
 * The checks under comparison, all on ONE pooled Jedis client to the same Redis, on buckets of the
 * same shape: a billion tokens refilled at a billion a second, so every check is admitted and writes.
 */
public final class Checks implements AutoCloseable {

    static final long CAPACITY = 1_000_000_000L;
    static final LimitPolicy POLICY = LimitPolicy.of("bench", CAPACITY, CAPACITY, Duration.ofSeconds(1));
    static final BucketConfiguration BUCKET4J = BucketConfiguration.builder()
            .addLimit(Bandwidth.builder()
                    .capacity(CAPACITY)
                    .refillGreedy(CAPACITY, Duration.ofSeconds(1))
                    .build())
            .build();

    private final RedisLink link;
    private final RedisRateLimitStore store;
    private final ProxyManager<String> bucket4j;

    Checks(String url, int poolSize) {
        link = RedisClients.create(RedisSettings.of(url, Duration.ofSeconds(2), poolSize));
        store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
        // Bucket4j's Jedis backend on the same UnifiedJedis (a Jedis 8 RedisClient): compare-and-swap,
        // with the expiry its docs recommend, like Tollgate's own.
        bucket4j = Bucket4jJedis.casBasedBuilder(link.jedis())
                .expirationAfterWrite(
                        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .keyMapper(Mapper.STRING)
                .build();
    }

    String ping() {
        return link.jedis().ping();
    }

    boolean tollgate(String key) {
        return store.tryConsume(POLICY, key).allowed();
    }

    BucketProxy bucket4jBucket(String key) {
        return bucket4j.builder().build(key, () -> BUCKET4J);
    }

    static boolean bucket4j(BucketProxy bucket) {
        return bucket.tryConsume(1);
    }

    /** The article's naive check: HMGET, decide here, HSET. */
    boolean naive(String key) {
        UnifiedJedis redis = link.jedis();
        List<String> v = redis.hmget(key, "tokens");
        long t = v.get(0) == null ? CAPACITY : Long.parseLong(v.get(0));
        if (t < 1) {
            return false;
        }
        redis.hset(key, "tokens", Long.toString(t - 1));
        return true;
    }

    /** Keys for Tollgate, Bucket4j and the naive check, disjoint, of the form Tollgate uses. */
    static String key(String impl, String id) {
        return "bench:{" + impl + ":" + id + "}";
    }

    @Override
    public void close() {
        link.close();
    }
}
