package dev.tollgate.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.Key;
import dev.tollgate.Limit;
import dev.tollgate.Permit;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Plain Java's typed configuration is the properties' configuration: {@code Tollgate.builder()} gives the
 * settings {@code tollgate.*} properties of the same values give, the same decisions, and the same rules'
 * messages.
 */
class TollgateBuilderTest {

    private static final Map<String, String> PROPERTIES = Map.ofEntries(
            Map.entry("tollgate.redis.url", "redis://localhost:6390/2"),
            Map.entry("tollgate.redis.timeout", "120ms"),
            Map.entry("tollgate.redis.pool-size", "4"),
            Map.entry("tollgate.redis.key-prefix", "shop"),
            Map.entry("tollgate.breaker.failures", "5"),
            Map.entry("tollgate.breaker.delay", "2s"),
            Map.entry("tollgate.fail-open", "false"),
            Map.entry("tollgate.local-fallback-servers", "3"),
            Map.entry("tollgate.local-denials", "500"),
            Map.entry("tollgate.lock-holder", "worker-1"),
            Map.entry("tollgate.limits.orders.capacity", "20"),
            Map.entry("tollgate.limits.orders.refill-tokens", "5"),
            Map.entry("tollgate.limits.orders.refill-period", "2s"),
            Map.entry("tollgate.limits.orders.key", "header:X-Api-Key"),
            Map.entry("tollgate.limits.orders.local-fallback", "true"),
            Map.entry("tollgate.limits.orders.shadow.capacity", "30"),
            Map.entry("tollgate.limits.month.algorithm", "fixed-window"),
            Map.entry("tollgate.limits.month.capacity", "5000000"),
            Map.entry("tollgate.limits.month.refill-period", "30d"),
            Map.entry("tollgate.limits.month.key", "principal"),
            Map.entry("tollgate.limits.month.fail-open", "true"),
            Map.entry("tollgate.limits.month.mode", "shadow"),
            Map.entry("tollgate.concurrency.reports.max-in-flight", "4"),
            Map.entry("tollgate.concurrency.reports.key", "principal"),
            Map.entry("tollgate.concurrency.reports.lease", "30s"));

    /** {@link #PROPERTIES} in code; a limit that gives no fail-open in properties takes the global one. */
    private static Tollgate.Builder inCode() {
        return Tollgate.builder()
                .redis("redis://localhost:6390/2")
                .timeout(Duration.ofMillis(120))
                .poolSize(4)
                .keyPrefix("shop")
                .breaker(5, Duration.ofSeconds(2))
                .failOpen(false)
                .localFallbackServers(3)
                .localDenials(500)
                .lockHolder("worker-1")
                .limit(Limit.tokenBucket("orders")
                        .capacity(20)
                        .refill(5, Duration.ofSeconds(2))
                        .key(Key.header("X-Api-Key"))
                        .failOpen(false)
                        .localFallback(true)
                        .candidate(Limit.tokenBucket("orders").capacity(30).refill(5, Duration.ofSeconds(2)))
                        .build())
                .limit(Limit.fixedWindow("month")
                        .capacity(5_000_000)
                        .window(Duration.ofDays(30))
                        .key(Key.principal())
                        .shadow(true)
                        .build())
                .concurrencyLimit(ConcurrencyLimit.of("reports")
                        .maxInFlight(4)
                        .key(Key.principal())
                        .lease(Duration.ofSeconds(30))
                        .failOpen(false)
                        .build());
    }

    @Test
    void theBuilderGivesTheSettingsOfTheSameProperties() {
        assertEquals(SettingsReader.read(PropertySource.of(PROPERTIES)), inCode().settings());
    }

    @Test
    void anEmptyBuilderGivesTheDefaultsOfNoProperties() {
        assertEquals(
                SettingsReader.read(PropertySource.of(Map.of())),
                Tollgate.builder().settings());
    }

    @Test
    void theBuilderDecidesAsTheProperties() {
        Limit two = Limit.tokenBucket("orders")
                .capacity(2)
                .refill(1, Duration.ofHours(1))
                .build();
        ConcurrencyLimit one = ConcurrencyLimit.of("reports").maxInFlight(1).build();
        try (Tollgate inCode =
                        Tollgate.builder().limit(two).concurrencyLimit(one).build();
                Tollgate fromProperties = Tollgate.fromProperties(Map.of(
                        "tollgate.limits.orders.capacity", "2",
                        "tollgate.limits.orders.refill-tokens", "1",
                        "tollgate.limits.orders.refill-period", "1h",
                        "tollgate.concurrency.reports.max-in-flight", "1"))) {
            for (Tollgate t : List.of(inCode, fromProperties)) {
                assertTrue(t.check("orders", "alice").allowed());
                assertTrue(t.check("orders", "alice").allowed());
                assertFalse(t.check("orders", "alice").allowed());
                assertEquals(two.capacity(), t.policy("orders").capacity());
                try (Permit first = t.tryEnter("reports", "alice");
                        Permit second = t.tryEnter("reports", "alice")) {
                    assertTrue(first.admitted());
                    assertFalse(second.admitted());
                }
            }
        }
    }

    @Test
    void everyBadValueIsReportedByItsPropertysRule() {
        TollgateConfigException e = assertThrows(TollgateConfigException.class, () -> Tollgate.builder()
                .timeout(Duration.ZERO)
                .poolSize(0)
                .breaker(0, Duration.ofMinutes(11))
                .lockHolder("two words")
                .build());
        assertEquals(
                List.of(
                        "tollgate.redis.timeout=0s (expected a duration from 1ms to 1m such as 250ms)",
                        "tollgate.redis.pool-size=0 (expected a whole number > 0)",
                        "tollgate.breaker.failures=0 (expected a whole number from 1 to 1000)",
                        "tollgate.breaker.delay=11m (expected a duration from 0ms to 10m such as 500ms)",
                        "tollgate.lock-holder=two words (expected a holder's name: 1-128 printable ASCII"
                                + " characters without spaces; lock holder must be 1-128 printable ASCII characters"
                                + " without spaces, but was 'two words')"),
                e.problems());
    }

    @Test
    void aNameGivenTwiceIsReportedWithTheOtherProblems() {
        Limit orders = Limit.tokenBucket("orders")
                .capacity(2)
                .refill(1, Duration.ofSeconds(1))
                .build();
        ConcurrencyLimit reports = ConcurrencyLimit.of("reports").maxInFlight(1).build();
        TollgateConfigException e = assertThrows(TollgateConfigException.class, () -> Tollgate.builder()
                .localDenials(-1)
                .limit(orders)
                .limit(orders)
                .concurrencyLimit(reports)
                .concurrencyLimit(reports)
                .build());
        assertEquals(
                List.of(
                        "tollgate.local-denials=-1 (expected a whole number from 0 (off) to 10000000)",
                        "limit 'orders' is given twice",
                        "concurrency limit 'reports' is given twice"),
                e.problems());
    }
}
