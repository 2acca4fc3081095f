package dev.tollgate.internal.ratelimit;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.TestSettings;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/** Usage you can bill on one Redis. */
class RedisUsageTest extends UsageContract {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static Engine tollgate;

    @BeforeAll
    static void build() {
        List<String> props = new ArrayList<>(List.of(LIMITS));
        props.addAll(List.of("tollgate.redis.url", redis.url(), "tollgate.redis.timeout", "5s"));
        tollgate = Engine.build(TestSettings.read(props.toArray(String[]::new)));
    }

    @AfterAll
    static void close() {
        tollgate.close();
    }

    @Override
    protected Engine tollgate() {
        return tollgate;
    }

    /**
     * What memory.md says a ledger costs: MEMORY USAGE of one with a 20-character client key after one day
     * of calls, and after 35 days (a listpack: a few bytes per day).
     */
    @org.junit.jupiter.api.Test
    void aLedgerCostsAboutWhatMemoryMdSays() {
        String client = "customer-0123456789a";
        tollgate.check("us-tb", client);
        String key = StoreKeys.usage(tollgate.limiter().keys().of(tollgate.limit("us-tb"), client));
        try (Jedis j = redis.admin()) {
            long oneDay = j.memoryUsage(key);
            long today = Long.parseLong(j.hkeys(key).stream()
                    .filter(f -> !f.equals("c"))
                    .findFirst()
                    .orElseThrow());
            for (int d = 1; d < 35; d++) {
                j.hset(key, Long.toString(today - d), "12345");
            }
            long days35 = j.memoryUsage(key);
            System.out.println("usage ledger: " + oneDay + " B at 1 day, " + days35 + " B at 35 days");
            org.junit.jupiter.api.Assertions.assertTrue(oneDay <= 160, "1 day: " + oneDay);
            org.junit.jupiter.api.Assertions.assertTrue(days35 <= 448, "35 days: " + days35);
        }
    }

    @Override
    protected Map<String, String> ledger(String key) {
        try (Jedis j = redis.admin()) {
            return j.hgetAll(key);
        }
    }

    @Override
    protected Long ttlSeconds(String key) {
        try (Jedis j = redis.admin()) {
            return j.ttl(key);
        }
    }
}
