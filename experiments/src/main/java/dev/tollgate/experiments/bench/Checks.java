package dev.tollgate.experiments.bench;

import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.LinkClient;
import dev.tollgate.internal.redis.LuaScript;
import dev.tollgate.internal.redis.RedisLink;
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

    private static final List<String> ARGS =
            List.of(Long.toString(CAPACITY), Long.toString(CAPACITY), Long.toString(POLICY.refillPeriodMicros()), "1");
    private static final LuaScript SCRIPT = RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET);

    private final Guarded guarded;
    private final RedisLink link;
    private final RedisRateLimitStore store;
    private final ProxyManager<String> bucket4j;

    /** Every check on the client of a Tollgate built with MicroProfile Fault Tolerance ({@link Guarded}). */
    Checks(String url, int poolSize) {
        guarded = new Guarded(url, poolSize);
        link = guarded.link();
        link.loadScripts();
        store = RedisRateLimitStore.using(Algorithm.TOKEN_BUCKET, link);
        // Bucket4j's Jedis backend on the same UnifiedJedis (a Jedis 8 RedisClient): compare-and-swap,
        // with the expiry its docs recommend, like Tollgate's own.
        bucket4j = Bucket4jJedis.casBasedBuilder(LinkClient.of(link))
                .expirationAfterWrite(
                        ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(Duration.ofSeconds(10)))
                .keyMapper(Mapper.STRING)
                .build();
    }

    String ping() {
        return LinkClient.of(link).ping();
    }

    boolean tollgate(String key) {
        return store.tryConsume(POLICY, key).allowed();
    }

    /**
     * The raw round trip under the store: {@code EVALSHA} of {@code token-bucket.lua} on the keys a
     * decision sends (the bucket and its operator rules), reply unparsed.
     */
    boolean evalsha(String storeKey) {
        return ((List<?>) LinkClient.of(link).evalsha(SCRIPT.sha1(), RedisRateLimitStore.keys(storeKey), ARGS))
                .get(0)
                .equals(1L);
    }

    /** {@link dev.tollgate.internal.engine.Engine#check}: the guarded check, Fault Tolerance included. */
    boolean guarded(String clientKey) {
        return guarded.check(clientKey);
    }

    BucketProxy bucket4jBucket(String key) {
        return bucket4j.builder().build(key, () -> BUCKET4J);
    }

    static boolean bucket4j(BucketProxy bucket) {
        return bucket.tryConsume(1);
    }

    /** The article's naive check: HMGET, decide here, HSET. */
    boolean naive(String key) {
        UnifiedJedis redis = LinkClient.of(link);
        List<String> v = redis.hmget(key, "tokens");
        long t = v.get(0) == null ? CAPACITY : Long.parseLong(v.get(0));
        if (t < 1) {
            return false;
        }
        redis.hset(key, "tokens", Long.toString(t - 1));
        return true;
    }

    /** A store key of the guarded check's shape ({@code tg:tk:{bench:<22 characters>}}) for the raw EVALSHA. */
    static String storeKey(String id) {
        return StoreKeys.DEFAULT.of(Guarded.LIMIT, "raw:" + id);
    }

    /** Keys for Tollgate, Bucket4j and the naive check, disjoint, of the form Tollgate uses. */
    static String key(String impl, String id) {
        return "bench:{" + impl + ":" + id + "}";
    }

    @Override
    public void close() {
        guarded.close();
    }
}
