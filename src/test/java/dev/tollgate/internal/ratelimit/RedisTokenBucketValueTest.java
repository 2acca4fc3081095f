package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.testing.RedisServer;
import dev.tollgate.testing.StoredBucket;
import dev.tollgate.testing.Timeouts;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * The token bucket's value in Redis ({@code bucket.lua}): one decimal integer {@code <W><s>}, whole
 * tokens at an instant with the fraction kept as time; a value Tollgate cannot have written read as no
 * state.
 */
class RedisTokenBucketValueTest {

    @RegisterExtension
    static final RedisServer redis = RedisServer.shared();

    private static RedisRateLimitStore store;

    @BeforeAll
    static void connect() {
        store = RedisRateLimitStore.connect(
                Algorithm.TOKEN_BUCKET, RedisSettings.of(redis.url(), Timeouts.GENEROUS, 4));
    }

    @AfterAll
    static void close() {
        store.close();
    }

    private static String freshKey() {
        return "value:" + UUID.randomUUID();
    }

    /**
     * A fraction of a token is written as time: the instant moves on by exactly the time of the tokens
     * spent, rounded up to a whole microsecond (never minting), and by no more (no refill lost). 1 token
     * per 100 ms (an exact number of microseconds) and 3 per second (333,333.3 us), from 300 instants.
     */
    @ParameterizedTest(name = "refill {0} per second")
    @ValueSource(longs = {10, 3})
    void theInstantMovesOnByExactlyTheTimeOfTheTokensSpent(long refill) {
        LimitPolicy p = new LimitPolicy("value", 10, refill, Duration.ofSeconds(1), 1);
        long period = 1_000_000;
        try (Jedis j = redis.admin()) {
            for (int i = 0; i < 300; i++) {
                String key = freshKey();
                // Between 1 and 4 tokens' refill, at an instant that is no whole number of tokens.
                long s = redis.timeMicros() - period / refill - (i * 7_919L) % (3 * period / refill) - 1;
                j.set(key, StoredBucket.value(0, s));
                Decision d = store.tryConsume(p, key);
                assertTrue(d.allowed(), d.toString());
                StoredBucket after = StoredBucket.read(j, key);
                assertEquals(d.remaining(), after.wholeTokens());
                long spentAndWhole = after.wholeTokens() + 1;
                assertEquals(
                        s - Math.floorDiv(-spentAndWhole * period, refill),
                        after.instantMicros(),
                        "from " + s + ": " + spentAndWhole + " tokens' time");
            }
        }
    }

    /** Waiting calls' tokens taken ahead are a debt in the value; a call that does not wait is behind it. */
    @Test
    void aReservationIsADebtThatEveryLaterCallQueuesBehind() {
        LimitPolicy p = new LimitPolicy("value", 2, 1, Duration.ofSeconds(1), 1);
        String key = freshKey();
        store.reserve(p, key, Duration.ZERO);
        store.reserve(p, key, Duration.ZERO);
        assertEquals(
                Duration.ofSeconds(1),
                round(store.reserve(p, key, Duration.ofSeconds(5)).delay()));
        try (Jedis j = redis.admin()) {
            assertEquals(-1, StoredBucket.read(j, key).wholeTokens(), "one token owed");
        }
        Decision d = store.tryConsume(p, key);
        assertFalse(d.allowed());
        assertEquals(Duration.ofSeconds(2), round(d.retryAfter()), "behind the waiter: " + d);
    }

    private static Duration round(Duration d) {
        return Duration.ofMillis(Math.round(d.toNanos() / 1e9 * 10) * 100);
    }

    /**
     * Strings Tollgate cannot have written: not digits, 15 digits, a float, a sign alone, whole tokens
     * beyond 2^53, an instant beyond 2^53 us, spaces. Each is no state: a full bucket decides, and the
     * next write replaces it.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(
            strings = {
                "abc",
                "176460560312345",
                "1764605603123456.5",
                "1.764605603123456e15",
                "-1764605603123456",
                "--11764605603123456",
                "+11764605603123456",
                "100000000000000001764605603123456",
                "9999999999999999",
                " 1764605603123456",
                "1764605603123456 ",
                "(empty)"
            })
    void aValueTollgateCannotHaveWrittenStartsAFullBucket(String value) {
        LimitPolicy p = LimitPolicy.of("value", 3, 1, Duration.ofSeconds(1));
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.set(key, value.equals("(empty)") ? "" : value);
            Decision d = store.tryConsume(p, key);
            assertTrue(d.allowed(), d.toString());
            assertEquals(2, d.remaining(), d.toString());
            assertEquals(2, StoredBucket.read(j, key).wholeTokens());
        }
    }

    /** A refund gives whole tokens back at the state's own instant, and keeps the key's expiry. */
    @Test
    void aRefundKeepsTheInstantAndTheExpiry() {
        LimitPolicy p = new LimitPolicy("value", 10, 1, Duration.ofHours(1), 3);
        String key = freshKey();
        Spent spent = store.spend(p, key);
        assertTrue(spent.decision().allowed());
        try (Jedis j = redis.admin()) {
            StoredBucket before = StoredBucket.read(j, key);
            j.pexpire(key, 600_000);
            store.refund(p, key, spent.mark());
            assertEquals(new StoredBucket(10, before.instantMicros()), StoredBucket.read(j, key));
            assertTrue(j.pttl(key) > 590_000, "the expiry stays: " + j.pttl(key));
        }
    }

    /**
     * A plan change keeps the whole tokens; the part of a token refilled so far is kept as time, which
     * the new rate refills: at most one token's interval of the old rate (here 11 s of 1 per 12 s, which
     * at 1 per 1.2 s is 9 tokens), never beyond the new capacity.
     */
    @Test
    void aPlanChangeRefillsTheTimeOfThePartTokenAtTheNewRate() {
        LimitPolicy free = new LimitPolicy("value", 5, 5, Duration.ofMinutes(1), 1);
        LimitPolicy pro = new LimitPolicy("value", 50, 50, Duration.ofMinutes(1), 1);
        String key = freshKey();
        try (Jedis j = redis.admin()) {
            j.set(key, StoredBucket.value(0, redis.timeMicros() - 11_000_000));
            assertFalse(store.tryConsume(free, key).allowed(), "11/12 of a free token");
            assertEquals(8, store.tryConsume(pro, key).remaining(), "9 pro tokens, one spent");
        }
    }
}
