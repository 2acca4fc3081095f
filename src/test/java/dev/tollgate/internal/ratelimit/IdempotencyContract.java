package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.engine.Engine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Idempotent charges ({@code idempotency-window}): a repeat of an admitted call gets its decision again
 * and spends nothing, atomically in the decision's own script; every backend (Redis, a 3-master Redis
 * Cluster, this JVM) must pass it. Quotas that never refill keep the counts independent of time.
 */
public abstract class IdempotencyContract {

    /** Tollgate over the backend under test, with the limits of {@link #LIMITS}. */
    protected abstract Engine tollgate();

    /** Whether the idempotency record at {@code key} is in the store; null in process (not readable). */
    protected abstract Boolean recordExists(String key);

    /** The whole tokens stored for the token bucket at {@code storeKey}, read past Tollgate; null in process. */
    protected abstract Long storedTokens(String storeKey);

    private static final String CENTURY = "36525d";

    protected static final String[] LIMITS = {
        "tollgate.limits.ik.capacity", "100",
        "tollgate.limits.ik.refill-tokens", "0",
        "tollgate.limits.ik.persist", "true",
        "tollgate.limits.ik.idempotency-window", "1h",
        "tollgate.limits.ik-fw.algorithm", "fixed-window",
        "tollgate.limits.ik-fw.capacity", "100",
        "tollgate.limits.ik-fw.refill-period", CENTURY,
        "tollgate.limits.ik-fw.idempotency-window", "1h",
        "tollgate.limits.ik-sw.algorithm", "sliding-window",
        "tollgate.limits.ik-sw.capacity", "100",
        "tollgate.limits.ik-sw.refill-period", CENTURY,
        "tollgate.limits.ik-sw.idempotency-window", "1h",
        "tollgate.limits.plain.capacity", "100",
        "tollgate.limits.plain.refill-tokens", "0",
        "tollgate.limits.plain.persist", "true",
        "tollgate.limits.ik-one.capacity", "1",
        "tollgate.limits.ik-one.refill-tokens", "0",
        "tollgate.limits.ik-one.persist", "true",
        "tollgate.limits.ik-one.idempotency-window", "1h",
    };

    private static String fresh() {
        return UUID.randomUUID().toString();
    }

    private Admission admit(String clientKey, Repeat repeat, String... limits) {
        List<Charge> charges = new ArrayList<>();
        for (String l : limits) {
            charges.add(Charge.of(tollgate().limit(l), clientKey));
        }
        return tollgate().limiter().admit(charges, Duration.ZERO, repeat);
    }

    /** What a fresh call finds left in {@code client}'s bucket, after its own spend of 1. */
    private long leftAfterOneMore(String limit, String client) {
        return tollgate().check(limit, client).remaining();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ik", "ik-fw", "ik-sw"})
    void tenCallsWithOneKeySpendOne(String limit) {
        String client = fresh();
        Repeat repeat = Repeat.of(fresh(), "POST", "/orders");
        for (int i = 0; i < 10; i++) {
            Admission a = admit(client, repeat, limit);
            assertTrue(a.allowed(), "call " + i);
            assertEquals(i > 0, a.charged().get(0).replayed(), "call " + i + " is a repeat");
            assertEquals(99, a.decision(0).remaining(), "every repeat is told what the first was");
        }
        assertEquals(98, leftAfterOneMore(limit, client));
        if (limit.equals("ik") && storedTokens(storeKey(limit, client)) != null) {
            assertEquals(98, storedTokens(storeKey(limit, client)));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ik", "ik-fw", "ik-sw"})
    void tenCallsWithDistinctKeysSpendTen(String limit) {
        String client = fresh();
        for (int i = 0; i < 10; i++) {
            assertTrue(
                    admit(client, Repeat.of(fresh(), "POST", "/orders"), limit).allowed());
        }
        assertEquals(89, leftAfterOneMore(limit, client));
    }

    @Test
    void theSameKeyOnAnotherMethodOrPathIsNoRepeat() {
        String client = fresh();
        String key = fresh();
        assertTrue(admit(client, Repeat.of(key, "POST", "/orders"), "ik").allowed());
        assertTrue(admit(client, Repeat.of(key, "PUT", "/orders"), "ik").allowed());
        assertTrue(admit(client, Repeat.of(key, "POST", "/orders/2"), "ik").allowed());
        assertTrue(admit(client, Repeat.of(key, "POST", "/orders"), "ik")
                .charged()
                .get(0)
                .replayed());
        assertEquals(96, leftAfterOneMore("ik", client));
    }

    @Test
    void aLimitWithoutAWindowSpendsForEveryRepeat() {
        String client = fresh();
        Repeat repeat = Repeat.of(fresh(), "POST", "/orders");
        for (int i = 0; i < 3; i++) {
            assertFalse(admit(client, repeat, "plain").charged().get(0).replayed());
        }
        assertEquals(96, leftAfterOneMore("plain", client));
    }

    @Test
    void tenConcurrentRepeatsSpendOne() throws Exception {
        String client = fresh();
        Repeat repeat = Repeat.of(fresh(), "POST", "/orders");
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Future<Admission>> calls = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                calls.add(pool.submit(() -> admit(client, repeat, "ik")));
            }
            int replayed = 0;
            for (Future<Admission> f : calls) {
                Admission a = f.get();
                assertTrue(a.allowed());
                replayed += a.charged().get(0).replayed() ? 1 : 0;
            }
            assertEquals(9, replayed);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(98, leftAfterOneMore("ik", client));
    }

    /**
     * Under two limits, all or nothing: a repeat of an admitted call is admitted by both without
     * spending; a call another limit denied gave its tokens back and kept no record, so its repeat is
     * decided afresh and never admitted by a replay of what was given back.
     */
    @Test
    void aRepeatGetsTheSameAllOrNothingAnswer() {
        String client = fresh();
        Repeat first = Repeat.of(fresh(), "POST", "/orders");
        assertTrue(admit(client, first, "ik", "ik-one").allowed());
        Admission again = admit(client, first, "ik", "ik-one");
        assertTrue(again.allowed());
        assertTrue(again.charged().get(0).replayed() && again.charged().get(1).replayed());
        // ik-one's only token is spent: another call is denied by it, and ik gives its token back.
        Repeat second = Repeat.of(fresh(), "POST", "/orders");
        Admission denied = admit(client, second, "ik", "ik-one");
        assertFalse(denied.allowed());
        String record = StoreKeys.replay(storeKey("ik", client), second);
        if (recordExists(record) != null) {
            assertFalse(recordExists(record), "a refund forgets the record");
            assertTrue(recordExists(StoreKeys.replay(storeKey("ik", client), first)));
        }
        Admission deniedAgain = admit(client, second, "ik", "ik-one");
        assertFalse(deniedAgain.allowed());
        assertFalse(deniedAgain.charged().get(0).replayed(), "a denied call left nothing to replay");
        assertEquals(98, leftAfterOneMore("ik", client));
    }

    @Test
    void fromCodeARepeatSpendsNothing() {
        String client = fresh();
        String key = fresh();
        for (int i = 0; i < 10; i++) {
            assertTrue(tollgate().check("ik", client, key).allowed());
        }
        assertEquals(98, leftAfterOneMore("ik", client));
    }

    @Test
    void aBadKeyIsRefusedBeforeAnythingIsSpent() {
        String client = fresh();
        assertThrows(IllegalArgumentException.class, () -> tollgate().check("ik", client, "x".repeat(256)));
        assertThrows(IllegalArgumentException.class, () -> tollgate().check("ik", client, "a b"));
        assertThrows(IllegalArgumentException.class, () -> tollgate().check("ik", client, ""));
        assertEquals(99, leftAfterOneMore("ik", client));
    }

    private String storeKey(String limit, String client) {
        return tollgate().limiter().keys().of(tollgate().limit(limit), client);
    }
}
