package dev.tollgate.internal.counter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Counters;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

class RedisCountersTest extends CountersContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisLink link;
    private static RedisCounters counters;

    @BeforeAll
    static void connect() {
        link = RedisClients.create(RedisSettings.of(redis.url(), Timeouts.GENEROUS, 32));
        counters = RedisCounters.using(link);
    }

    @AfterAll
    static void close() {
        link.close();
    }

    @Override
    protected Counters counters() {
        return counters;
    }

    @Override
    protected void elapse(Duration d) throws InterruptedException {
        long until = redis.timeMicros() + d.toNanos() / 1000;
        while (redis.timeMicros() < until) {
            Thread.sleep(5);
        }
    }

    @Test
    void firstIncrementSetsTheExpiryInTheSameStep() {
        String name = freshName();
        counters.increment(name, 1, Duration.ofSeconds(60));
        try (Jedis j = redis.admin()) {
            long ttl = j.pttl("tollgate:counter:{" + name + "}");
            assertTrue(ttl > 59_000 && ttl <= 60_000, "ttl " + ttl);
        }
    }

    @Test
    void counterLeftWithoutExpiryByAPlainIncrGetsOneOnTheNextIncrement() {
        String name = freshName();
        String key = "tollgate:counter:{" + name + "}";
        try (Jedis j = redis.admin()) {
            j.incr(key);
            assertEquals(-1, j.pttl(key), "the article's INCR, its EXPIRE never sent");
            assertEquals(2, counters.increment(name, 1, Duration.ofSeconds(60)));
            assertTrue(j.pttl(key) > 59_000);
        }
    }
}
