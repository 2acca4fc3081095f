package dev.tollgate.internal.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.internal.http.PartnerFields.Quota;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PartnerFieldsTest {

    private static final Instant NOW = Instant.parse("2026-12-02T05:00:00Z");

    private static PartnerFields read(String... fields) {
        Map<String, String> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        for (int i = 0; i < fields.length; i += 2) {
            m.put(fields[i], fields[i + 1]);
        }
        return PartnerFields.read(m::get, NOW);
    }

    private static Optional<Quota> quota(String policy) {
        return read("RateLimit-Policy", policy).quota();
    }

    @Test
    void theDraftsPolicyIsABurstThenCallsPerWindow() {
        assertEquals(Optional.of(new Quota(10, 10, Duration.ofSeconds(10))), quota("\"demo\";q=10;w=10"));
        assertEquals(Optional.of(new Quota(5, 5, Duration.ofSeconds(1))), quota("default;q=5;w=1;qu=\"requests\""));
    }

    @Test
    void anOlderDraftsIntegerItemIsTheQuota() {
        assertEquals(Optional.of(new Quota(100, 100, Duration.ofSeconds(60))), quota("100;w=60"));
    }

    @Test
    void severalPoliciesPaceByTheSlowestRateWithTheSmallestBurst() {
        // 5 per second and 100 per day: 100 per day, never more than 5 at once.
        assertEquals(
                Optional.of(new Quota(5, 100, Duration.ofDays(1))), quota("\"burst\";q=5;w=1, \"day\";q=100;w=86400"));
        assertEquals(
                Optional.of(new Quota(5, 100, Duration.ofDays(1))), quota("\"day\";q=100;w=86400, \"burst\";q=5;w=1"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "garbage",
                "\"demo\";q=10",
                "\"demo\";w=10",
                "\"demo\";q=-1;w=10",
                "\"demo\";q=0;w=10",
                "\"demo\";q=10;w=0",
                "\"demo\";q=10;w=-5",
                "\"demo\";q=1000000001;w=10",
                "\"demo\";q=10;w=86401",
                "\"demo\";q=99999999999999999999;w=1",
                "\"demo\";q=1.5;w=1",
                "\"demo\";q=10;w=1, garbage",
                "\"demo;q=10;w=1",
                "\"demo\";q=10;w=1,",
                ";q=10;w=1",
                "\"demo\";q=10;w=1;q=",
            })
    void aPolicyThatDoesNotParseOrIsOutOfBoundsChangesNothing(String policy) {
        assertEquals(Optional.empty(), quota(policy));
    }

    @Test
    void anAbsurdlyLongFieldOrListChangesNothing() {
        String padding = " ".repeat(PartnerFields.MAX_FIELD_LENGTH);
        assertEquals(Optional.empty(), quota("\"demo\";q=10;w=1" + padding + "x"));
        assertEquals(Optional.empty(), quota(String.join(",", java.util.Collections.nCopies(17, "a;q=1;w=1"))));
        assertEquals(
                1,
                quota(String.join(",", java.util.Collections.nCopies(16, "a;q=1;w=1")))
                        .orElseThrow()
                        .calls());
        assertEquals(
                Optional.empty(), read("Retry-After", "1" + "0".repeat(2000)).retryAfter());
    }

    @Test
    void retryAfterInSecondsOrAsAnHttpDate() {
        assertEquals(
                Optional.of(Duration.ofSeconds(3)), read("Retry-After", "3").retryAfter());
        assertEquals(Optional.of(Duration.ZERO), read("Retry-After", "0").retryAfter());
        assertEquals(
                Optional.of(Duration.ofSeconds(90)),
                read("Retry-After", "Wed, 02 Dec 2026 05:01:30 GMT").retryAfter());
        assertEquals(
                Optional.of(Duration.ZERO),
                read("Retry-After", "Wed, 02 Dec 2026 04:00:00 GMT").retryAfter(),
                "a date past is now");
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "soon", "3601", "1e3", "Wed, 02 Dec 2026 07:00:00 GMT", "99999999999999999999"})
    void aRetryAfterThatIsGarbageNegativeOrHugeChangesNothing(String value) {
        assertEquals(Optional.empty(), read("Retry-After", value).retryAfter());
    }

    @Test
    void theDraftsRateLimitSaysWhenNoneIsLeft() {
        assertEquals(
                Optional.of(Duration.ofSeconds(5)),
                read("RateLimit", "\"demo\";r=0;t=5").exhausted());
        assertEquals(Optional.empty(), read("RateLimit", "\"demo\";r=3;t=5").exhausted(), "some left");
        assertEquals(
                Optional.of(Duration.ofSeconds(7)),
                read("RateLimit", "\"a\";r=0;t=2, \"b\";r=0;t=7").exhausted(),
                "the longest of the exhausted");
        assertEquals(Optional.empty(), read("RateLimit", "\"demo\";r=0;t=-5").exhausted());
        assertEquals(Optional.empty(), read("RateLimit", "\"demo\";r=0;t=99999").exhausted());
        assertEquals(Optional.empty(), read("RateLimit", "\"demo\";r=zero;t=5").exhausted());
    }

    @Test
    void theOlderXRateLimitFieldsInSecondsOrAsAnEpochSecond() {
        assertEquals(
                Optional.of(Duration.ofSeconds(30)),
                read("X-RateLimit-Limit", "60", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "30")
                        .exhausted());
        long epoch = NOW.getEpochSecond() + 42;
        assertEquals(
                Optional.of(Duration.ofSeconds(42)),
                read("x-ratelimit-remaining", "0", "x-ratelimit-reset", "" + epoch)
                        .exhausted(),
                "GitHub's form, any case");
        assertEquals(
                Optional.of(Duration.ofSeconds(9)),
                read("RateLimit-Remaining", "0", "RateLimit-Reset", "9").exhausted());
        assertEquals(
                Optional.empty(),
                read("X-RateLimit-Remaining", "4", "X-RateLimit-Reset", "30").exhausted(),
                "some left");
        assertEquals(
                Optional.empty(),
                read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "" + (NOW.getEpochSecond() - 5))
                        .exhausted(),
                "a reset past");
        assertEquals(
                Optional.empty(),
                read("X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "" + (NOW.getEpochSecond() + 7200))
                        .exhausted(),
                "more than an hour");
        assertEquals(
                Optional.empty(),
                read("X-RateLimit-Remaining", "-0", "X-RateLimit-Reset", "30").exhausted());
    }

    @Test
    void noFieldsAnnounceNothing() {
        assertEquals(PartnerFields.NONE, read());
        assertEquals(PartnerFields.NONE, read("Content-Type", "text/plain".toUpperCase(Locale.ROOT)));
    }
}
