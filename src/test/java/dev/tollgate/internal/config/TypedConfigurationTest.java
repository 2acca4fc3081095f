package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.JobLock;
import dev.tollgate.Key;
import dev.tollgate.Limit;
import dev.tollgate.Limit.KeyStep;
import dev.tollgate.LimitPolicy;
import dev.tollgate.OncePerCluster;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The same configuration, once as {@code tollgate.*} properties and once in plain Java with no string but
 * names, gives the same values: properties are only a translator onto the builders.
 */
class TypedConfigurationTest {

    private static final Map<String, String> PROPERTIES = Map.ofEntries(
            Map.entry("tollgate.limits.orders.capacity", "20"),
            Map.entry("tollgate.limits.orders.refill-tokens", "5"),
            Map.entry("tollgate.limits.orders.refill-period", "2s"),
            Map.entry("tollgate.limits.orders.cost", "2"),
            Map.entry("tollgate.limits.orders.key", "header:X-Api-Key"),
            Map.entry("tollgate.limits.orders.key-normalize", "nfc,case-fold"),
            Map.entry("tollgate.limits.orders.fail-open", "false"),
            Map.entry("tollgate.limits.orders.local-fallback", "true"),
            Map.entry("tollgate.limits.orders.shadow.capacity", "30"),
            Map.entry("tollgate.limits.month.algorithm", "fixed-window"),
            Map.entry("tollgate.limits.month.capacity", "5000000"),
            Map.entry("tollgate.limits.month.refill-period", "30d"),
            Map.entry("tollgate.limits.month.key", "principal"),
            Map.entry("tollgate.limits.month.mode", "shadow"),
            Map.entry("tollgate.limits.recent.algorithm", "sliding-window"),
            Map.entry("tollgate.limits.recent.capacity", "100"),
            Map.entry("tollgate.limits.recent.refill-period", "1m"),
            Map.entry("tollgate.limits.recent.key", "global"),
            Map.entry("tollgate.limits.recent.shadow.algorithm", "token-bucket"),
            Map.entry("tollgate.limits.recent.shadow.capacity", "50"),
            Map.entry("tollgate.limits.recent.shadow.refill-tokens", "1"),
            Map.entry("tollgate.limits.quota.capacity", "3"),
            Map.entry("tollgate.limits.quota.refill-tokens", "0"),
            Map.entry("tollgate.limits.quota.persist", "true"),
            Map.entry("tollgate.limits.plain.capacity", "10"),
            Map.entry("tollgate.limits.plain.refill-tokens", "1"),
            Map.entry("tollgate.concurrency.reports.max-in-flight", "4"),
            Map.entry("tollgate.concurrency.reports.key", "principal"),
            Map.entry("tollgate.concurrency.reports.lease", "30s"),
            Map.entry("tollgate.concurrency.reports.fail-open", "false"),
            Map.entry("tollgate.concurrency.uploads.max-in-flight", "2"),
            Map.entry("tollgate.locks.nightly.at-least", "5m"),
            Map.entry("tollgate.locks.nightly.keep-alive", "true"));

    private static final TollgateSettings READ = SettingsReader.read(PropertySource.of(PROPERTIES));

    private static LimitSpec inJava(Limit limit) {
        return TypedSpecs.limit(limit, 1);
    }

    @Test
    void aTokenBucketWithKeyFailClosedLocalFallbackAndCandidate() {
        Limit orders = Limit.tokenBucket("orders")
                .capacity(20)
                .refill(5, Duration.ofSeconds(2))
                .cost(2)
                .key(Key.header("X-Api-Key"))
                .keyNormalization(Set.of(KeyStep.NFC, KeyStep.CASE_FOLD))
                .failOpen(false)
                .localFallback(true)
                .candidate(Limit.tokenBucket("orders")
                        .capacity(30)
                        .refill(5, Duration.ofSeconds(2))
                        .cost(2))
                .build();
        assertEquals(inJava(orders), READ.limit("orders").orElseThrow());
    }

    @Test
    void aFixedWindowInShadowMode() {
        Limit month = Limit.fixedWindow("month")
                .capacity(5_000_000)
                .window(Duration.ofDays(30))
                .key(Key.principal())
                .shadow(true)
                .build();
        assertEquals(inJava(month), READ.limit("month").orElseThrow());
    }

    @Test
    void aSlidingWindowWithACandidateOfAnotherAlgorithm() {
        Limit recent = Limit.slidingWindow("recent")
                .capacity(100)
                .window(Duration.ofMinutes(1))
                .key(Key.global())
                .candidate(Limit.tokenBucket("recent").capacity(50).refillTokens(1))
                .build();
        assertEquals(inJava(recent), READ.limit("recent").orElseThrow());
    }

    @Test
    void aQuotaThatPersists() {
        Limit quota = Limit.tokenBucket("quota")
                .capacity(3)
                .refillTokens(0)
                .persist(true)
                .build();
        assertEquals(inJava(quota), READ.limit("quota").orElseThrow());
    }

    /** The defaults, which the builder alone holds: refilled every second, one token a call, by address, failing open. */
    @Test
    void aLimitOfDefaultsIsTheDocumentedOne() {
        LimitSpec plain =
                inJava(Limit.tokenBucket("plain").capacity(10).refillTokens(1).build());
        assertEquals(plain, READ.limit("plain").orElseThrow());
        assertEquals(
                new LimitSpec(LimitPolicy.of("plain", 10, 1, Duration.ofSeconds(1)), new KeySpec.Ip(), true), plain);
    }

    @Test
    void concurrencyLimits() {
        ConcurrencyLimit reports = ConcurrencyLimit.of("reports")
                .maxInFlight(4)
                .key(Key.principal())
                .lease(Duration.ofSeconds(30))
                .failOpen(false)
                .build();
        assertEquals(
                TypedSpecs.concurrency(reports),
                READ.concurrencyLimit("reports").orElseThrow());
        ConcurrencyLimit uploads = ConcurrencyLimit.of("uploads").maxInFlight(2).build();
        assertEquals(
                TypedSpecs.concurrency(uploads),
                READ.concurrencyLimit("uploads").orElseThrow());
        assertEquals(
                new dev.tollgate.internal.concurrency.ConcurrencySpec(
                        "uploads", 2, new KeySpec.Global(), Duration.ofSeconds(10), true),
                TypedSpecs.concurrency(uploads));
    }

    static class Jobs {
        @OncePerCluster(name = "nightly", ttl = "1h")
        void nightly() {}
    }

    @Test
    void aLockFromTheAnnotationAndItsOverrides() throws Exception {
        JobLock nightly = JobLock.of("nightly")
                .ttl(Duration.ofHours(1))
                .atLeast(Duration.ofMinutes(5))
                .keepAlive(true)
                .build();
        var m = Jobs.class.getDeclaredMethod("nightly");
        assertEquals(
                TypedSpecs.lock(nightly),
                new LockSpecs(PropertySource.of(PROPERTIES)).of(m.getAnnotation(OncePerCluster.class), m));
    }

    @Test
    void everyProblemOfABuilderIsInOneException() {
        String e = assertThrows(TollgateConfigException.class, () -> Limit.slidingWindow("w")
                        .capacity(20_000)
                        .window(Duration.ofDays(40_000))
                        .cost(2_000)
                        .candidate(Limit.tokenBucket("w").capacity(0))
                        .build())
                .getMessage();
        assertTrue(
                e.contains("limit 'w': capacity=20000 (expected a whole number from 1 to 10000 for a sliding-window"),
                e);
        assertTrue(e.contains("limit 'w': refill-period=40000d (expected a duration from 1ms to 36525d"), e);
        assertTrue(e.contains("limit 'w': cost=2000 (expected a whole number from 1 to 1000 for a sliding-window"), e);
        assertTrue(e.contains("limit 'w': shadow.refill-tokens is required (a whole number >= 0)"), e);
        assertTrue(e.contains("limit 'w': shadow.capacity=0 (expected a whole number from 1 to"), e);
        String c = assertThrows(
                        TollgateConfigException.class,
                        () -> ConcurrencyLimit.of("c").lease(Duration.ofDays(2)).build())
                .getMessage();
        assertTrue(c.contains("concurrency limit 'c': max-in-flight is required (a whole number > 0)"), c);
        assertTrue(c.contains("concurrency limit 'c': lease=2d (expected a duration from 100ms to 1d"), c);
        String l = assertThrows(TollgateConfigException.class, () -> JobLock.of("j")
                        .ttl(Duration.ofMinutes(1))
                        .atLeast(Duration.ofMinutes(2))
                        .build())
                .getMessage();
        assertTrue(l.contains("lock 'j': at-least=2m (must be between 0 and the ttl (1m))"), l);
    }
}
