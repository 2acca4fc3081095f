package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.internal.engine.Engine;
import dev.tollgate.testing.TestSettings;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What a limit does to a client key before it names a bucket ({@code key-normalize}): by default
 * {@code nfc,trim} (so {@code alice} and {@code " alice "} are one client, {@code Alice} another: tokens
 * are case-sensitive), {@code case-fold} on request, {@code none} for the key as it came.
 */
class KeyNormalizationTest {

    private static final String COMPOSED = "Ren\u00e9e";
    private static final String DECOMPOSED = "Rene\u0301e";

    @Test
    void theDefaultComposesAndTrimsButKeepsCase() {
        KeyNormalization n = KeyNormalization.DEFAULT;
        assertEquals("alice", n.apply(" alice\t"));
        assertEquals("Alice", n.apply("Alice"));
        assertEquals(COMPOSED, n.apply(DECOMPOSED));
        assertEquals("a b", n.apply("a b"), "inner spaces are part of the key");
    }

    @Test
    void caseFoldingFollowsUnicodeNotTheServersLocale() {
        KeyNormalization fold = KeyNormalization.parse("case-fold");
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr"));
            assertEquals("alice", fold.apply("ALICE"), "a Turkish server folds I as i too");
        } finally {
            Locale.setDefault(before);
        }
        assertEquals(fold.apply("STRASSE"), fold.apply("stra\u00dfe"));
        assertEquals(" alice ", fold.apply(" Alice "), "case-fold alone does not trim");
    }

    @Test
    void noneLeavesTheKeyAsItCame() {
        assertEquals(" Alice ", KeyNormalization.NONE.apply(" Alice "));
        assertEquals(DECOMPOSED, KeyNormalization.NONE.apply(DECOMPOSED));
    }

    @Test
    void parsingNamesWhatIsAccepted() {
        assertEquals(
                "nfc,trim,case-fold",
                KeyNormalization.parse("CASE-FOLD,trim , nfc").configText());
        assertEquals("none", KeyNormalization.parse("none").configText());
        assertEquals("nfc,trim", KeyNormalization.DEFAULT.configText());
        for (String bad : List.of("lower", "none,trim", "trim,,nfc", "")) {
            assertThrows(IllegalArgumentException.class, () -> KeyNormalization.parse(bad), bad);
        }
    }

    @Test
    void aPrintableAsciiKeyNamesTheBucketItAlwaysDidUnlessCaseIsFolded() {
        LimitSpec limit = new LimitSpec(
                dev.tollgate.LimitPolicy.of("api", 5, 1, java.time.Duration.ofSeconds(1)), new KeySpec.Ip(), true);
        String key = "AbC-123_x.y~z";
        assertEquals(StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "api", key), StoreKeys.DEFAULT.of(limit, key));
        assertNotEquals(
                StoreKeys.DEFAULT.of(Algorithm.TOKEN_BUCKET, "api", key),
                StoreKeys.DEFAULT.of(limit.withKeyNormalization(KeyNormalization.parse("case-fold")), key));
    }

    @Test
    void aliceAliceAndSpacedAliceShareOneBucketOnlyWhenTheLimitFoldsCase() {
        try (Engine t = Engine.build(TestSettings.read(
                "tollgate.limits.folded.capacity", "1",
                "tollgate.limits.folded.refill-tokens", "0",
                "tollgate.limits.folded.persist", "true",
                "tollgate.limits.folded.key-normalize", "nfc,trim,case-fold",
                "tollgate.limits.exact.capacity", "1",
                "tollgate.limits.exact.refill-tokens", "0",
                "tollgate.limits.exact.persist", "true",
                "tollgate.limits.exact.key-normalize", "none",
                "tollgate.limits.usual.capacity", "1",
                "tollgate.limits.usual.refill-tokens", "0",
                "tollgate.limits.usual.persist", "true"))) {
            List<String> keys = List.of("alice", "Alice", " alice ");
            assertEquals(List.of(true, false, false), allowed(t, "folded", keys), "one client");
            assertEquals(List.of(true, true, true), allowed(t, "exact", keys), "three clients");
            assertEquals(List.of(true, true, false), allowed(t, "usual", keys), "trimmed, case kept");
            assertFalse(t.check("usual", "alice").allowed());
            assertTrue(t.check("usual", "ALICE").allowed());
        }
    }

    private static List<Boolean> allowed(Engine t, String limit, List<String> keys) {
        return keys.stream().map(k -> t.check(limit, k).allowed()).toList();
    }
}
