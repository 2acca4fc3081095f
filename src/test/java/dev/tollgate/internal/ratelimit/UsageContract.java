package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ClientUsage;
import dev.tollgate.internal.engine.Engine;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Usage you can bill ({@code usage-days}): what each client spent per UTC day, written in the decision's
 * own script; every backend (Redis, a 3-master Redis Cluster, this JVM) must pass it. Each test uses a
 * limit of its own, so the export of a limit lists exactly the clients the test made.
 */
public abstract class UsageContract {

    /** Tollgate over the backend under test, with the limits of {@link #LIMITS}. */
    protected abstract Engine tollgate();

    /** The usage ledger at {@code key}, read past Tollgate; null in process (not readable). */
    protected abstract Map<String, String> ledger(String key);

    /** The ledger's time to live in seconds, read past Tollgate; null in process. */
    protected abstract Long ttlSeconds(String key);

    private static final String CENTURY = "36525d";

    protected static final String[] LIMITS = {
        "tollgate.limits.us-tb.capacity", "100",
        "tollgate.limits.us-tb.refill-tokens", "0",
        "tollgate.limits.us-tb.persist", "true",
        "tollgate.limits.us-tb.usage-days", "35",
        "tollgate.limits.us-fw.algorithm", "fixed-window",
        "tollgate.limits.us-fw.capacity", "100",
        "tollgate.limits.us-fw.refill-period", CENTURY,
        "tollgate.limits.us-fw.usage-days", "35",
        "tollgate.limits.us-sw.algorithm", "sliding-window",
        "tollgate.limits.us-sw.capacity", "100",
        "tollgate.limits.us-sw.refill-period", CENTURY,
        "tollgate.limits.us-sw.usage-days", "35",
        "tollgate.limits.us-cal.algorithm", "calendar",
        "tollgate.limits.us-cal.capacity", "100",
        "tollgate.limits.us-cal.period", "month",
        "tollgate.limits.us-cal.usage-days", "35",
        "tollgate.limits.us-deny.capacity", "3",
        "tollgate.limits.us-deny.refill-tokens", "0",
        "tollgate.limits.us-deny.persist", "true",
        "tollgate.limits.us-deny.usage-days", "1",
        "tollgate.limits.us-refund.capacity", "100",
        "tollgate.limits.us-refund.refill-tokens", "0",
        "tollgate.limits.us-refund.persist", "true",
        "tollgate.limits.us-refund.usage-days", "400",
        "tollgate.limits.us-settle.capacity", "10000",
        "tollgate.limits.us-settle.refill-tokens", "0",
        "tollgate.limits.us-settle.persist", "true",
        "tollgate.limits.us-settle.usage-days", "7",
        "tollgate.limits.us-off.capacity", "100",
        "tollgate.limits.us-off.refill-tokens", "0",
        "tollgate.limits.us-off.persist", "true",
    };

    private static String fresh(String name) {
        return name + "-" + UUID.randomUUID();
    }

    /** The UTC days a test may span: yesterday (a test started just before midnight) to tomorrow. */
    private static LocalDate from() {
        return LocalDate.now(ZoneOffset.UTC).minusDays(1);
    }

    private static LocalDate to() {
        return LocalDate.now(ZoneOffset.UTC).plusDays(1);
    }

    private void calls(String limit, String client, int n) {
        for (int i = 0; i < n; i++) {
            assertTrue(tollgate().check(limit, client).allowed(), limit + ": call " + (i + 1) + " of " + client);
        }
    }

    private String usageKey(String limit, String client) {
        return StoreKeys.usage(tollgate().limiter().keys().of(tollgate().limit(limit), client));
    }

    @ParameterizedTest
    @ValueSource(strings = {"us-tb", "us-fw", "us-sw", "us-cal"})
    void exportListsExactlyWhatEachClientSpent(String limit) {
        String a = fresh("a");
        String b = fresh("b");
        String c = fresh("c");
        calls(limit, a, 5);
        calls(limit, b, 7);
        calls(limit, c, 11);

        List<ClientUsage> usage = tollgate().admin().usage(limit, from(), to(), 10);

        assertEquals(List.of(c, b, a), usage.stream().map(ClientUsage::client).toList(), "the most first");
        assertEquals(
                List.of(11L, 7L, 5L), usage.stream().map(ClientUsage::units).toList());
        assertEquals(7L, tollgate().admin().usage(limit, b, from(), to()).units());
        assertEquals(
                List.of(c),
                tollgate().admin().usage(limit, from(), to(), 1).stream()
                        .map(ClientUsage::client)
                        .toList(),
                "top 1");
    }

    @Test
    void deniedCallsAddNothing() {
        String client = fresh("d");
        calls("us-deny", client, 3);
        for (int i = 0; i < 4; i++) {
            assertFalse(tollgate().check("us-deny", client).allowed());
        }
        assertEquals(
                3L, tollgate().admin().usage("us-deny", client, from(), to()).units());
    }

    @Test
    void aRefundTakesItsCostOff() {
        String client = fresh("r");
        calls("us-refund", client, 4);
        Admission a = tollgate()
                .limiter()
                .admit(List.of(Charge.of(tollgate().limit("us-refund"), client)), Duration.ZERO, null);
        assertTrue(a.allowed());
        assertEquals(
                5L, tollgate().admin().usage("us-refund", client, from(), to()).units());
        a.refund();
        assertEquals(
                4L, tollgate().admin().usage("us-refund", client, from(), to()).units());
    }

    @Test
    void aCallThatWaitsForItsTokensIsRecorded() throws InterruptedException {
        String client = fresh("w");
        calls("us-refund", client, 2);
        assertTrue(
                tollgate().acquire("us-refund", client, Duration.ofSeconds(1)).allowed());
        assertEquals(
                3L, tollgate().admin().usage("us-refund", client, from(), to()).units());
    }

    @Test
    void aSettledCostIsWhatIsKept() {
        String up = fresh("up");
        String down = fresh("down");
        tollgate().estimate("us-settle", up, 1_000).settle(1_342);
        tollgate().estimate("us-settle", down, 1_000).settle(200);
        assertEquals(
                1_342L, tollgate().admin().usage("us-settle", up, from(), to()).units());
        assertEquals(
                200L, tollgate().admin().usage("us-settle", down, from(), to()).units());
    }

    @Test
    void theLedgerNamesItsClientAndExpiresAfterItsRetention() {
        String client = fresh("t");
        calls("us-refund", client, 2);
        Map<String, String> ledger = ledger(usageKey("us-refund", client));
        if (ledger == null) {
            return; // in process: not readable past Tollgate
        }
        assertEquals(client, ledger.get("c"));
        long today = LocalDate.now(ZoneOffset.UTC).toEpochDay();
        long units = ledger.entrySet().stream()
                .filter(e -> !e.getKey().equals("c"))
                .peek(e -> assertTrue(Math.abs(Long.parseLong(e.getKey()) - today) <= 1, "a UTC day: " + e))
                .mapToLong(e -> Long.parseLong(e.getValue()))
                .sum();
        assertEquals(2L, units);
        long ttl = ttlSeconds(usageKey("us-refund", client));
        assertTrue(ttl > 400L * 86_400 && ttl <= 401L * 86_400, "400 days and one: " + ttl);
    }

    @Test
    void aLimitWithoutUsageWritesNoLedger() {
        String client = fresh("off");
        calls("us-off", client, 3);
        Map<String, String> ledger = ledger(usageKey("us-off", client));
        if (ledger != null) {
            assertTrue(ledger.isEmpty(), "no usage key: " + ledger);
        }
        assertThrows(IllegalArgumentException.class, () -> tollgate().admin().usage("us-off", from(), to(), 10));
    }

    @Test
    void aBadReadIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> tollgate().admin().usage("us-tb", to(), from(), 10));
        assertThrows(IllegalArgumentException.class, () -> tollgate().admin().usage("us-tb", from(), to(), 0));
        assertThrows(
                IllegalArgumentException.class,
                () -> tollgate().admin().usage("us-tb", from(), from().plusDays(400), 10));
    }
}
