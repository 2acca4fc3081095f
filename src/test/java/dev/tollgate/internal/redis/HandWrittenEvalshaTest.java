package dev.tollgate.internal.redis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.testing.RedisServer;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.Jedis;

/**
 * The demo's hand-written check ({@code GET /demo/by-hand}), the baseline the HTTP experiment compares
 * Tollgate's filter with, is what it claims: one {@code EVALSHA} of {@code token-bucket.lua} per call and
 * no other command, deciding as the script does.
 */
class HandWrittenEvalshaTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    /** Capacity 2, one token back an hour, cost 1: the token bucket's arguments. */
    private static final List<String> ARGS = List.of("2", "1", "3600000000", "1");

    private static final List<String> KEYS =
            RedisRateLimitStore.keys(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "by-hand", "10.0.0.1"));

    private static final List<String> OTHER =
            RedisRateLimitStore.keys(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "by-hand", "10.0.0.2"));

    @BeforeEach
    void empty() {
        redis.flushAll();
    }

    @Test
    void eachCheckCostsRedisWhatOneEvalshaOfTheTokenBucketScriptCosts() {
        LuaScript script = RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET);
        try (HandWrittenEvalsha byHand = HandWrittenEvalsha.connect(redis.url(), script);
                Jedis admin = redis.admin()) {
            admin.scriptLoad(script.source());
            byHand.allowed(List.of("warm-up"), ARGS); // the pool's first connection says hello once
            admin.configResetStat();
            admin.evalsha(script.sha1(), OTHER, ARGS);
            Map<String, Long> oneEvalsha = calls(admin);
            assertEquals(1L, oneEvalsha.get("evalsha"), oneEvalsha.toString());

            admin.configResetStat();
            assertTrue(byHand.allowed(KEYS, ARGS));
            assertEquals(oneEvalsha, calls(admin), "one check, one EVALSHA (and what the script runs), nothing more");
            assertTrue(byHand.allowed(KEYS, ARGS));
            assertFalse(byHand.allowed(KEYS, ARGS), "the third of a bucket of 2 is denied");
            assertEquals(3L, calls(admin).get("evalsha"));
            assertTrue(admin.exists(KEYS.get(0)), "the bucket is kept under the key it was given");
        }
    }

    @Test
    void aRedisThatLostTheScriptIsSentItOnce() {
        try (HandWrittenEvalsha byHand =
                        HandWrittenEvalsha.connect(redis.url(), RedisRateLimitStore.script(Algorithm.TOKEN_BUCKET));
                Jedis admin = redis.admin()) {
            admin.scriptFlush();
            admin.configResetStat();
            assertTrue(byHand.allowed(KEYS, ARGS));
            assertEquals(1L, calls(admin).get("eval"), "the script sent again: " + calls(admin));
            assertTrue(byHand.allowed(KEYS, ARGS));
            assertEquals(1L, calls(admin).get("eval"), "and then run by its SHA: " + calls(admin));
        }
    }

    /** Commands Redis ran (a script's own included), by name, with their calls: all but this test's INFO and CONFIG. */
    private static Map<String, Long> calls(Jedis admin) {
        Map<String, Long> out = new TreeMap<>();
        for (String line : admin.info("commandstats").split("\r?\n")) {
            if (line.startsWith("cmdstat_")
                    && !line.startsWith("cmdstat_info:")
                    && !line.startsWith("cmdstat_config")) {
                String name = line.substring("cmdstat_".length(), line.indexOf(':'));
                int from = line.indexOf("calls=") + "calls=".length();
                out.put(name, Long.parseLong(line.substring(from, line.indexOf(',', from))));
            }
        }
        return out;
    }
}
