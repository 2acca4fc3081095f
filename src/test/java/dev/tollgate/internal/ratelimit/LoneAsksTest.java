package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.redis.KeyPrefix;
import org.junit.jupiter.api.Test;

/**
 * The memo of lone checks' questions answers exactly what making them afresh would: the limit's own
 * charge for the client key as it came, the store key of the key as normalised, under the limiter's
 * prefix; a reloaded limit (another object) gets its own; a key too long is refused every time.
 */
class LoneAsksTest {

    private static final LimitSpec API = new LimitSpec(LimitPolicy.quota("api", 10), new KeySpec.Global(), false);
    private static final StoreKeys SHOP = StoreKeys.in(new KeyPrefix("shop:"));

    @Test
    void aKeptQuestionIsTheOneMadeAfresh() {
        LoneAsks asks = new LoneAsks(SHOP);
        for (int round = 0; round < 2; round++) {
            for (int i = 0; i < 5 * LoneAsks.SLOTS; i++) {
                String client = "client-" + i;
                Ask ask = asks.of(API, client);
                assertEquals(SHOP.of(API, client), ask.storeKey(), client);
                assertEquals(Charge.of(API, client), ask.charge(), client);
                assertEquals(java.time.Duration.ZERO, ask.maxWait());
                assertEquals(null, ask.repeat());
            }
        }
        assertSame(asks.of(API, "hot"), asks.of(API, "hot"), "a hot key's question is made once");
    }

    @Test
    void theChargeKeepsTheClientKeyAsItCameAndTheStoreKeyIsOfTheNormalisedOne() {
        LoneAsks asks = new LoneAsks(StoreKeys.DEFAULT);
        Ask padded = asks.of(API, " alice ");
        Ask plain = asks.of(API, "alice");
        assertEquals(plain.storeKey(), padded.storeKey());
        assertEquals(" alice ", padded.charge().clientKey());
        assertEquals("alice", plain.charge().clientKey());
    }

    @Test
    void aReloadedLimitOfAnotherAlgorithmGetsItsOwnBucket() {
        LoneAsks asks = new LoneAsks(StoreKeys.DEFAULT);
        LimitSpec window = new LimitSpec(
                new LimitPolicy("api", 10, 10, java.time.Duration.ofMinutes(1), 1),
                Algorithm.FIXED_WINDOW,
                new KeySpec.Global(),
                false);
        String bucket = asks.of(API, "bob").storeKey();
        String reloaded = asks.of(window, "bob").storeKey();
        assertNotEquals(bucket, reloaded);
        assertEquals(StoreKeys.DEFAULT.of(window, "bob"), reloaded);
        assertEquals(window, asks.of(window, "bob").charge().limit());
    }

    @Test
    void aCheckByNameIsAnsweredFromTheMemoOnlyUnderTheConfigurationItWasMadeIn() {
        LoneAsks asks = new LoneAsks(StoreKeys.DEFAULT);
        LimitSpec reloaded = new LimitSpec(LimitPolicy.quota("api", 20), new KeySpec.Global(), false);
        Object before = new Object();
        Object after = new Object();
        java.util.List<String> lookedUp = new java.util.ArrayList<>();
        java.util.function.Function<String, LimitSpec> first = name -> {
            lookedUp.add(name);
            return API;
        };
        java.util.function.Function<String, LimitSpec> second = name -> {
            lookedUp.add(name);
            return reloaded;
        };
        Ask hot = asks.of(before, "api", "hot", first);
        assertSame(hot, asks.of(before, "api", "hot", first), "a hot key of a named limit is looked up once");
        assertSame(hot, asks.of(API, "hot"), "the check of the limit itself finds the same question");
        assertEquals(java.util.List.of("api"), lookedUp);

        Ask afterReload = asks.of(after, "api", "hot", second);
        assertSame(reloaded, afterReload.charge().limit(), "another configuration looks the name up again");
        assertEquals(java.util.List.of("api", "api"), lookedUp);
        assertSame(
                reloaded,
                asks.of(after, new String("api"), "hot", second).charge().limit());
        assertSame(reloaded, asks.of(reloaded, "hot").charge().limit());
        assertSame(API, asks.of(API, "hot").charge().limit(), "the older limit itself still gets its own");
        assertThrows(
                ClientKeyTooLongException.class,
                () -> asks.of(after, "api", "x".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH + 1), second));
    }

    @Test
    void aKeyTooLongIsRefusedEveryTimeAndNoKeyIsNoCharge() {
        LoneAsks asks = new LoneAsks(StoreKeys.DEFAULT);
        String tooLong = "x".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH + 1);
        for (int i = 0; i < 2; i++) {
            assertThrows(ClientKeyTooLongException.class, () -> asks.of(API, tooLong));
        }
        String longButFine = "y".repeat(StoreKeys.MAX_CLIENT_KEY_LENGTH);
        assertEquals(
                StoreKeys.DEFAULT.of(API, longButFine),
                asks.of(API, longButFine).storeKey());
        assertThrows(IllegalArgumentException.class, () -> asks.of(API, null));
    }
}
