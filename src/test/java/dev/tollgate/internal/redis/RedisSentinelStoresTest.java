package dev.tollgate.internal.redis;

import dev.tollgate.Counters;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockLost;
import dev.tollgate.internal.counter.CountersContract;
import dev.tollgate.internal.counter.RedisCounters;
import dev.tollgate.internal.lock.DistributedLockContract;
import dev.tollgate.internal.lock.RedisDistributedLock;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.FixedWindowStoreContract;
import dev.tollgate.internal.ratelimit.RateLimitStore;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.SlidingWindowStoreContract;
import dev.tollgate.internal.ratelimit.TokenBucketStoreContract;
import dev.tollgate.testing.RedisSentinels;
import dev.tollgate.testing.TestClock;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.resps.Tuple;

/**
 * Beyond failover: every store's contract through a master the Sentinels name ({@code
 * redis-sentinel://...}), on one master, one replica and three Sentinels started once for all of them.
 * The stores find the master through the Sentinels, never by its port.
 */
class RedisSentinelStoresTest {

    @RegisterExtension
    static final RedisSentinels sentinels = new RedisSentinels();

    private static final List<LockLost> LOST = new CopyOnWriteArrayList<>();
    private static RedisRateLimitStore tokenBucket;
    private static RedisRateLimitStore fixedWindow;
    private static RedisRateLimitStore slidingWindow;
    private static RedisLink link;
    private static RedisCounters counters;
    private static RedisDistributedLock lock;

    @BeforeAll
    static void connect() {
        System.out.println("master, replica and 3 sentinels ready in "
                + sentinels.setupTime().toMillis() + " ms");
        RedisSettings settings = RedisSettings.of(sentinels.url(), Timeouts.GENEROUS, 32);
        tokenBucket = RedisRateLimitStore.connect(Algorithm.TOKEN_BUCKET, settings);
        fixedWindow = RedisRateLimitStore.connect(Algorithm.FIXED_WINDOW, settings);
        slidingWindow = RedisRateLimitStore.connect(Algorithm.SLIDING_WINDOW, settings);
        link = RedisClients.create(settings);
        counters = RedisCounters.using(link);
        lock = RedisDistributedLock.using(GuardedRedis.unguarded(link), LOST::add);
    }

    @AfterAll
    static void close() {
        lock.close();
        link.close();
        tokenBucket.close();
        fixedWindow.close();
        slidingWindow.close();
    }

    /** The master's clock: the one Redis every decision here runs on. */
    private static TestClock clock() {
        return sentinels.master();
    }

    @Nested
    class TokenBucket extends TokenBucketStoreContract {
        @Override
        protected RateLimitStore store() {
            return tokenBucket;
        }

        @Override
        protected TestClock clock() {
            return RedisSentinelStoresTest.clock();
        }
    }

    @Nested
    class FixedWindow extends FixedWindowStoreContract {
        @Override
        protected RateLimitStore store() {
            return fixedWindow;
        }

        @Override
        protected TestClock clock() {
            return RedisSentinelStoresTest.clock();
        }
    }

    @Nested
    class SlidingWindow extends SlidingWindowStoreContract {
        @Override
        protected RateLimitStore store() {
            return slidingWindow;
        }

        @Override
        protected TestClock clock() {
            return RedisSentinelStoresTest.clock();
        }

        @Override
        protected long newestEntryMicros(String key) {
            try (Jedis j = sentinels.master().admin()) {
                List<Tuple> newest = j.zrangeWithScores(key, -1, -1);
                return newest.isEmpty() ? -1 : (long) newest.get(0).getScore();
            }
        }
    }

    @Nested
    class Counting extends CountersContract {
        @Override
        protected Counters counters() {
            return counters;
        }

        @Override
        protected void elapse(Duration d) throws InterruptedException {
            clock().elapse(d);
        }
    }

    @Nested
    class Locks extends DistributedLockContract {
        @Override
        protected DistributedLock lock() {
            return lock;
        }

        @Override
        protected List<LockLost> lost() {
            return LOST;
        }

        @Override
        protected void elapse(Duration d) throws InterruptedException {
            clock().elapse(d);
        }

        @Override
        protected long nowMicros() {
            return clock().nowMicros();
        }
    }
}
