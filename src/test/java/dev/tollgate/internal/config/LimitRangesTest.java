package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.LimitRules;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.ClientOverrides;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Limit settings at the edges of what the stores can count: each is refused when the application
 * deploys, naming the property and its value, never later as an overflow in a request.
 */
class LimitRangesTest {

    private static TollgateSettings read(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return SettingsReader.read(PropertySource.of(m));
    }

    private static String error(String... kv) {
        return assertThrows(TollgateConfigException.class, () -> read(kv)).getMessage();
    }

    /** An operator's override or block lasts what a refill period may: the one range, the one text. */
    @Test
    void anOverrideOrABlockLastsWhatARefillPeriodMay() {
        ClientOverrides.checkDuration("api", "a block", LimitPolicy.MAX_PERIOD);
        ClientOverrides.checkDuration("api", "a block", Duration.ofMillis(1));
        for (Duration beyond : new Duration[] {LimitPolicy.MAX_PERIOD.plusMillis(1), Duration.ofNanos(999_999)}) {
            String e = assertThrows(
                            IllegalArgumentException.class,
                            () -> ClientOverrides.checkDuration("api", "an override", beyond))
                    .getMessage();
            assertEquals("limit 'api': an override must last from 1ms to 36525d (100 years), but was " + beyond, e);
        }
        assertTrue(LimitRules.REFILL_PERIOD_RULE.startsWith("a duration from 1ms to 36525d (100 years)"));
    }

    @Test
    void capacityBeyond2To53IsRefusedNamingTheProperty() {
        String e =
                error("tollgate.limits.api.capacity", "1000000000000000000", "tollgate.limits.api.refill-tokens", "1");
        assertTrue(
                e.contains("tollgate.limits.api.capacity=1000000000000000000 (expected a whole number from 1 to"
                        + " 9007199254740992 (2^53)"),
                e);
        assertTrue(
                read(
                                "tollgate.limits.api.capacity",
                                "9007199254740992",
                                "tollgate.limits.api.refill-tokens",
                                "1" + "000000000")
                        .limit("api")
                        .isPresent(),
                "2^53 itself is fine");
    }

    @Test
    void refillTokensBeyond2To53AndNegativeCostAreNamed() {
        String e = error(
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "9007199254740993",
                "tollgate.limits.api.cost", "-1");
        assertTrue(e.contains("tollgate.limits.api.refill-tokens=9007199254740993 (expected a whole number from 0"), e);
        assertTrue(e.contains("tollgate.limits.api.cost=-1 (expected a whole number from 1 to the capacity (10)"), e);
    }

    /** Today the JAX-RS filter's multiplyExact overflows on every request: 500 instead of an answer. */
    @Test
    void fixedWindowOf5MillionPer30DaysDeploysAndTellsItsWindow() {
        LimitSpec s = read(
                        "tollgate.limits.month.algorithm", "fixed-window",
                        "tollgate.limits.month.capacity", "5000000",
                        "tollgate.limits.month.refill-period", "30d")
                .limit("month")
                .orElseThrow();
        assertEquals(2_592_000, s.policy().windowSeconds());
    }

    @Test
    void periodsBeyond100YearsAreNamedAndNeverOverflow() {
        for (String period : new String[] {"36526d", "109500d", "999999999999d", "PT2562047788015216H"}) {
            String e = error(
                    "tollgate.limits.api.capacity", "10",
                    "tollgate.limits.api.refill-tokens", "1",
                    "tollgate.limits.api.refill-period", period);
            assertTrue(
                    e.contains("tollgate.limits.api.refill-period=" + period + " (expected a duration from 1ms to"
                            + " 36525d (100 years)"),
                    e);
        }
        assertTrue(read(
                        "tollgate.limits.api.capacity", "10",
                        "tollgate.limits.api.refill-tokens", "10",
                        "tollgate.limits.api.refill-period", "36525d")
                .limit("api")
                .isPresent());
    }

    @Test
    void bucketThatTakesOver100YearsToRefillIsNamed() {
        String e = error(
                "tollgate.limits.api.capacity", "1000000",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.refill-period", "1d");
        assertTrue(
                e.contains("tollgate.limits.api.capacity=1000000, tollgate.limits.api.refill-tokens=1,"
                        + " tollgate.limits.api.refill-period=1d (an empty bucket refills in 1000000 days; expected at most"
                        + " 100 years"),
                e);
    }

    @Test
    void slidingWindowAbove10000IsRefusedWithWhatItWouldCost() {
        String e = error(
                "tollgate.limits.w.algorithm", "sliding-window",
                "tollgate.limits.w.capacity", "200000",
                "tollgate.limits.w.cost", "200000");
        assertTrue(
                e.contains("tollgate.limits.w.capacity=200000 (expected a whole number from 1 to 10000 for a"
                        + " sliding-window limit: it keeps one Redis entry (about 127 bytes) per admitted call"),
                e);
        assertTrue(
                e.contains(
                        "tollgate.limits.w.cost=200000 (expected a whole number from 1 to 1000 for a sliding-window limit"),
                e);
        assertTrue(read("tollgate.limits.w.algorithm", "sliding-window", "tollgate.limits.w.capacity", "10000")
                .limit("w")
                .isPresent());
    }

    @Test
    void quotaThatNeverRefillsPersistsOnlyWhenToldTo() {
        String e = error("tollgate.limits.q.capacity", "3", "tollgate.limits.q.refill-tokens", "0");
        assertTrue(
                e.contains("tollgate.limits.q.refill-tokens=0 (a quota that never refills keeps one Redis key per"
                        + " client forever: set persist=true to accept that"),
                e);
        LimitSpec q = read(
                        "tollgate.limits.q.capacity", "3",
                        "tollgate.limits.q.refill-tokens", "0",
                        "tollgate.limits.q.persist", "true")
                .limit("q")
                .orElseThrow();
        assertFalse(q.policy().refills());
    }

    @Test
    void persistOnAnythingButAQuotaIsAMistake() {
        String e = error(
                "tollgate.limits.api.capacity", "3",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.persist", "true",
                "tollgate.limits.w.algorithm", "fixed-window",
                "tollgate.limits.w.capacity", "3",
                "tollgate.limits.w.persist", "true",
                "tollgate.limits.x.capacity", "3",
                "tollgate.limits.x.refill-tokens", "0",
                "tollgate.limits.x.persist", "yes");
        assertTrue(e.contains("tollgate.limits.api.persist=true (only a token-bucket quota that never refills"), e);
        assertTrue(e.contains("tollgate.limits.w.persist=true (only a token-bucket quota"), e);
        assertTrue(e.contains("tollgate.limits.x.persist=yes (expected true or false)"), e);
    }

    @Test
    void policyItselfRefusesWhatTheScriptsCannotCount() {
        assertThrows(IllegalArgumentException.class, () -> LimitPolicy.quota("api", Long.MAX_VALUE));
        assertThrows(IllegalArgumentException.class, () -> LimitPolicy.of("api", 10, 1L << 54, Duration.ofSeconds(1)));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> LimitPolicy.of("api", 10, 1, Duration.ofDays(999_999_999_999L)));
        assertTrue(
                e.getMessage()
                        .contains("limit 'api': refill-period=PT23999999999976H (expected a duration from 1ms to"
                                + " 36525d (100 years)"),
                e.getMessage());
        assertEquals(
                Long.MAX_VALUE / 1_000_000 + 1,
                new LimitPolicy("api", LimitPolicy.MAX_COUNT, 1, LimitPolicy.MAX_PERIOD, 1).windowSeconds(),
                "no overflow: capped at 2^63 us");
    }
}
