package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.LimitPolicy;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.http.Cidr;
import dev.tollgate.internal.http.ClientHeader;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SettingsReaderTest {

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

    @Test
    void defaultsAreSafe() {
        TollgateSettings s = read();
        assertTrue(s.redisUrl().isEmpty());
        assertEquals(Duration.ofMillis(250), s.budget());
        assertEquals(16, s.poolSize());
        assertTrue(s.failOpen());
        assertEquals(java.util.Set.of(PacingLimit.NAME), s.limits().keySet(), "the built-in pacing limit alone");
        assertEquals(64, s.http().ipv6Prefix());
    }

    @Test
    void theLockHolderIsThisJvmUnlessNamedAndABadNameIsNamed() {
        assertEquals(dev.tollgate.internal.lock.LockNames.thisProcess(), read().lockHolder());
        assertTrue(read().lockHolder().matches("\\d+@.+"), read().lockHolder());
        assertEquals(
                "report-worker-2",
                read("tollgate.lock-holder", "report-worker-2").lockHolder());
        assertTrue(
                error("tollgate.lock-holder", "two words")
                        .contains("tollgate.lock-holder=two words (expected a holder's"
                                + " name: 1-128 printable ASCII characters without spaces"),
                error("tollgate.lock-holder", "two words"));
    }

    @Test
    void theKeyPrefixIsNoneUnlessNamedAndABadOneFailsTheDeployment() {
        assertEquals(dev.tollgate.internal.redis.KeyPrefix.NONE, read().keyPrefix());
        assertEquals(
                "shop-prod:",
                read("tollgate.redis.key-prefix", " shop-prod: ").keyPrefix().value());
        for (String bad : new String[] {"{shop}:", "shop prod", "shop*", "x".repeat(65), "caf\u00e9:"}) {
            String message = error("tollgate.redis.key-prefix", bad);
            assertTrue(
                    message.contains("tollgate.redis.key-prefix=" + bad + " (expected at most 64 letters, digits,"),
                    message);
        }
    }

    @Test
    void aLimitNormalisesClientKeysByNfcAndTrimUnlessItSaysOtherwise() {
        String p = "tollgate.limits.api.";
        assertEquals(
                KeyNormalization.DEFAULT,
                read(p + "capacity", "5", p + "refill-tokens", "1")
                        .limit("api")
                        .orElseThrow()
                        .keyNormalization());
        assertEquals(
                "nfc,trim,case-fold",
                read(p + "capacity", "5", p + "refill-tokens", "1", p + "key-normalize", "case-fold, trim,nfc")
                        .limit("api")
                        .orElseThrow()
                        .keyNormalization()
                        .configText());
        assertEquals(
                KeyNormalization.NONE,
                read(p + "capacity", "5", p + "refill-tokens", "1", p + "key-normalize", "none")
                        .limit("api")
                        .orElseThrow()
                        .keyNormalization());
        String message = error(p + "capacity", "5", p + "refill-tokens", "1", p + "key-normalize", "lowercase");
        assertTrue(
                message.contains("tollgate.limits.api.key-normalize=lowercase (expected none, or any of nfc, trim"
                        + " and case-fold, comma-separated; no step 'lowercase')"),
                message);
    }

    @Test
    void readsALimitWithItsDefaults() {
        TollgateSettings s = read(
                "tollgate.limits.api.capacity", "100",
                "tollgate.limits.api.refill-tokens", "10",
                "tollgate.fail-open", "false");
        LimitSpec api = s.limit("api").orElseThrow();
        assertEquals(new LimitPolicy("api", 100, 10, Duration.ofSeconds(1), 1), api.policy());
        assertEquals(new KeySpec.Ip(), api.key());
        assertFalse(api.failOpen(), "inherits tollgate.fail-open");
    }

    @Test
    void readsAConcurrencyLimitWithItsDefaultsAndEverySetting() {
        TollgateSettings s = read(
                "tollgate.concurrency.reports.max-in-flight", "4",
                "tollgate.concurrency.uploads.max-in-flight", "2",
                "tollgate.concurrency.uploads.key", "principal",
                "tollgate.concurrency.uploads.lease", "1m",
                "tollgate.concurrency.uploads.fail-open", "false");
        assertEquals(
                new ConcurrencySpec("reports", 4, new KeySpec.Global(), Duration.ofSeconds(10), true),
                s.concurrencyLimit("reports").orElseThrow());
        assertEquals(
                new ConcurrencySpec("uploads", 2, new KeySpec.Principal(), Duration.ofMinutes(1), false),
                s.concurrencyLimit("uploads").orElseThrow());
        assertEquals(
                java.util.Set.of(PacingLimit.NAME), s.limits().keySet(), "a concurrency limit is not a rate limit");
    }

    @Test
    void readsEveryLimitSetting() {
        LimitSpec s = read(
                        "tollgate.limits.login.capacity", "5",
                        "tollgate.limits.login.refill-tokens", "1",
                        "tollgate.limits.login.refill-period", "PT1M",
                        "tollgate.limits.login.cost", "5",
                        "tollgate.limits.login.key", "header:X-Api-Key",
                        "tollgate.limits.login.fail-open", "false")
                .limit("login")
                .orElseThrow();
        assertEquals(new LimitPolicy("login", 5, 1, Duration.ofMinutes(1), 5), s.policy());
        assertEquals(new KeySpec.Header("X-Api-Key"), s.key());
        assertFalse(s.failOpen());
    }

    @Test
    void badNumberNamesThePropertyAndTheValue() {
        assertTrue(error("tollgate.limits.api.capacity", "lots", "tollgate.limits.api.refill-tokens", "1")
                .contains("tollgate.limits.api.capacity=lots (expected a whole number > 0)"));
    }

    @Test
    void costAboveCapacityIsRejected() {
        String e = error(
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.cost", "11");
        assertTrue(e.contains("tollgate.limits.api.cost=11 (expected a whole number from 1 to the capacity (10)"), e);
    }

    @Test
    void missingRequiredPropertyIsNamed() {
        assertTrue(
                error("tollgate.limits.api.capacity", "10").contains("tollgate.limits.api.refill-tokens is required"));
    }

    @Test
    void unknownLimitSettingIsNamed() {
        String e = error(
                "tollgate.limits.api.capacity", "10",
                "tollgate.limits.api.refill-tokens", "1",
                "tollgate.limits.api.capacty", "10");
        assertTrue(e.contains("tollgate.limits.api.capacty (unknown setting 'capacty'"), e);
    }

    @Test
    void badDurationKeyUrlAndCidrAreAllReportedTogether() {
        String e = error(
                "tollgate.redis.timeout", "soon",
                "tollgate.redis.url", "http://user:secret@host:6379",
                "tollgate.http.trusted-proxies", "10.0.0.0/40",
                "tollgate.http.limits", "nope",
                "tollgate.fail-open", "maybe");
        assertTrue(e.contains("tollgate.redis.timeout=soon"), e);
        assertTrue(e.contains("tollgate.redis.url=http://***@host:6379 ("), "password masked: " + e);
        assertFalse(e.contains("secret"));
        assertTrue(e.contains("tollgate.http.trusted-proxies=10.0.0.0/40 (expected the prefix must be 0..32)"), e);
        assertTrue(e.contains("tollgate.http.limits=nope (expected no limit named 'nope'"), e);
        assertTrue(e.contains("tollgate.fail-open=maybe (expected true or false)"), e);
    }

    @Test
    void windowLimitsRefillTheirCapacityOncePerWindow() {
        LimitSpec s = read(
                        "tollgate.limits.w.algorithm", "sliding-window",
                        "tollgate.limits.w.capacity", "60",
                        "tollgate.limits.w.refill-period", "1m")
                .limit("w")
                .orElseThrow();
        assertEquals(Algorithm.SLIDING_WINDOW, s.algorithm());
        assertEquals(new LimitPolicy("w", 60, 60, Duration.ofMinutes(1), 1), s.policy());
        assertEquals(60, s.policy().windowSeconds());
    }

    @Test
    void refillTokensOnAWindowLimitIsAMistake() {
        String e = error(
                "tollgate.limits.w.algorithm", "fixed-window",
                "tollgate.limits.w.capacity", "60",
                "tollgate.limits.w.refill-tokens", "1");
        assertTrue(e.contains("tollgate.limits.w.refill-tokens=1 (expected nothing: a fixed-window limit"), e);
        assertTrue(
                error("tollgate.limits.w.algorithm", "leaky", "tollgate.limits.w.capacity", "1")
                        .contains(
                                "tollgate.limits.w.algorithm=leaky (expected token-bucket, fixed-window, sliding-window or calendar)"));
    }

    @Test
    void durationsInShortAndIsoForm() {
        assertEquals(Duration.ofMillis(500), Durations.parse("500ms"));
        assertEquals(Duration.ofMinutes(1), Durations.parse("1m"));
        assertEquals(Duration.ofSeconds(1), Durations.parse("PT1S"));
        assertEquals("1m", Durations.format(Duration.ofSeconds(60)));
        assertEquals("250ms", Durations.format(Duration.ofMillis(250)));
    }

    @Test
    void cidrContainment() throws Exception {
        Cidr c = Cidr.parse("10.1.0.0/16");
        assertTrue(c.contains(java.net.InetAddress.getByName("10.1.255.3")));
        assertFalse(c.contains(java.net.InetAddress.getByName("10.2.0.1")));
        assertTrue(Cidr.parse("fd00::/8").contains(java.net.InetAddress.getByName("fd12::1")));
        assertEquals(
                List.of(Cidr.parse("127.0.0.1")),
                read("tollgate.http.trusted-proxies", " 127.0.0.1 ", "tollgate.http.client-header", "X-Forwarded-For")
                        .http()
                        .trustedProxies());
    }

    @Test
    void trustedProxiesNameTheOneHeaderTheyWrite() {
        HttpSettings h = read("tollgate.http.trusted-proxies", "10.0.0.0/8", "tollgate.http.client-header", "forwarded")
                .http();
        assertEquals(Optional.of(ClientHeader.FORWARDED), h.clientHeader());
        assertEquals(Optional.empty(), read().http().clientHeader());
        String missing = error("tollgate.http.trusted-proxies", "10.0.0.0/8");
        assertTrue(
                missing.contains("tollgate.http.client-header is required when tollgate.http.trusted-proxies is set"
                        + " (X-Forwarded-For or Forwarded: the one header those proxies write."),
                missing);
        String alone = error("tollgate.http.client-header", "X-Forwarded-For");
        assertTrue(
                alone.contains("tollgate.http.client-header=X-Forwarded-For (expected tollgate.http.trusted-proxies as"
                        + " well"),
                alone);
        String other = error("tollgate.http.trusted-proxies", "10.0.0.0/8", "tollgate.http.client-header", "X-Real-IP");
        assertTrue(
                other.contains("tollgate.http.client-header=X-Real-IP (expected X-Forwarded-For or Forwarded)"), other);
    }

    @Test
    void trustedProxiesAreLiteralAddressesNeverNames() {
        String e = error(
                "tollgate.http.trusted-proxies", "1a2b.bad.cafe, 10.1, 010.0.0.0/8, ::ffff:10.0.0.0/8",
                "tollgate.http.client-header", "X-Forwarded-For");
        assertTrue(e.contains("tollgate.http.trusted-proxies=1a2b.bad.cafe (expected an address or address/prefix"), e);
        assertTrue(e.contains("tollgate.http.trusted-proxies=10.1 (expected an address"), e);
        assertTrue(e.contains("tollgate.http.trusted-proxies=010.0.0.0/8 (expected an address"), e);
        assertTrue(
                e.contains("tollgate.http.trusted-proxies=::ffff:10.0.0.0/8 (expected the prefix of an IPv4-mapped"),
                e);
        assertEquals(
                List.of(Cidr.parse("10.0.0.0/8")),
                read("tollgate.http.trusted-proxies", "::ffff:10.0.0.0/104", "tollgate.http.client-header", "Forwarded")
                        .http()
                        .trustedProxies());
    }
}
