package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisSettingsChangeTest extends SettingsChangeContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static Map<Algorithm, RateLimitStore> stores;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 8));
        stores = Map.of(
                Algorithm.TOKEN_BUCKET, RedisRateLimitStore.tokenBucket(link),
                Algorithm.FIXED_WINDOW, RedisRateLimitStore.fixedWindow(link),
                Algorithm.SLIDING_WINDOW, RedisRateLimitStore.slidingWindow(link),
                Algorithm.CALENDAR, RedisRateLimitStore.using(Algorithm.CALENDAR, link));
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected RateLimitStore store(Algorithm algorithm) {
        return stores.get(algorithm);
    }

    @Override
    protected TestClock clock() {
        return redis;
    }

    /** The key a raised window left behind expires with the old window, not in 3,000 years. */
    @Test
    void fixedWindowRaisedFrom1sTo60sKeepsTheKeysExpiryWithinTheOldWindow() {
        String key = freshKey();
        LimitPolicy oneSecond = new LimitPolicy("change", 3, 3, Duration.ofSeconds(1), 1);
        store(Algorithm.FIXED_WINDOW).tryConsume(oneSecond, key);
        Decision d = store(Algorithm.FIXED_WINDOW)
                .tryConsume(new LimitPolicy("change", 3, 3, Duration.ofSeconds(60), 1), key);
        assertTrue(d.allowed());
        assertTrue(d.resetAfter().compareTo(Duration.ofSeconds(1)) <= 0, "reset after " + d.resetAfter());
        try (Jedis j = redis.admin()) {
            long ttl = j.pttl(key);
            assertTrue(ttl > 0 && ttl <= 1000, "pttl " + ttl);
        }
    }

    /**
     * A limit whose algorithm changed (or differs between two servers during a deploy) reads the same
     * limit name and client: each algorithm has its own key, so the other's state is neither read nor
     * refused ({@code WRONGTYPE}).
     */
    @Test
    void changedAlgorithmStartsAFreshBucketAndNeverMeetsTheOthersKey() {
        RateLimiter limiter = new RateLimiter(stores, Guard.DIRECT, DecisionListener.NONE, System::nanoTime);
        LimitPolicy p = new LimitPolicy("switch", 1, 1, Duration.ofMinutes(1), 1);
        LimitSpec bucket = new LimitSpec(p, Algorithm.TOKEN_BUCKET, new KeySpec.Global(), true);
        LimitSpec sliding = new LimitSpec(p, Algorithm.SLIDING_WINDOW, new KeySpec.Global(), true);
        LimitSpec fixed = new LimitSpec(p, Algorithm.FIXED_WINDOW, new KeySpec.Global(), true);
        String client = "client-" + System.nanoTime();
        assertTrue(limiter.check(bucket, client).allowed());
        Decision d = limiter.check(sliding, client);
        assertTrue(d.allowed(), "a fresh sliding window");
        assertFalse(d.degraded());
        assertTrue(limiter.check(fixed, client).allowed(), "a fresh fixed window");
        assertFalse(limiter.check(bucket, client).allowed(), "the token bucket kept its state");
        assertFalse(limiter.check(sliding, client).allowed());
        assertFalse(limiter.check(fixed, client).allowed());
    }
}
