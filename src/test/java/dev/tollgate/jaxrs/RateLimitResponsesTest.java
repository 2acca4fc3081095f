package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RateLimitResponsesTest {

    private final LimitPolicy api = LimitPolicy.of("api", 100, 10, Duration.ofSeconds(1));

    @Test
    void fieldsFollowTheIetfDraft() {
        Decision allowed = Decision.ofMicros(true, 50, 0, 5_000_000);
        List<RateLimitResponses.Applied> applied = List.of(new RateLimitResponses.Applied(api, allowed));
        assertEquals("\"api\";q=100;w=10", RateLimitResponses.policyField(applied));
        assertEquals("\"api\";r=50;t=5", RateLimitResponses.rateLimitField(applied));
    }

    @Test
    void deniedFieldSaysWhenTheNextCallPassesRoundedUp() {
        Decision denied = Decision.ofMicros(false, 0, 100_001, 10_000_000);
        assertEquals(
                "\"api\";r=0;t=1",
                RateLimitResponses.rateLimitField(List.of(new RateLimitResponses.Applied(api, denied))));
        assertEquals(2, RateLimitResponses.seconds(Duration.ofMillis(1001)));
        assertEquals(1, RateLimitResponses.seconds(Duration.ofMillis(1000)));
        assertEquals(1, RateLimitResponses.seconds(Duration.ZERO), "never 0: a client would retry at once");
    }

    @Test
    void severalLimitsAreOneListEach() {
        LimitPolicy quota = LimitPolicy.quota("daily", 1000);
        List<RateLimitResponses.Applied> applied = List.of(
                new RateLimitResponses.Applied(api, Decision.ofMicros(true, 99, 0, 100_000)),
                new RateLimitResponses.Applied(quota, Decision.ofMicros(true, 10, 0, -1)));
        assertEquals("\"api\";q=100;w=10, \"daily\";q=1000", RateLimitResponses.policyField(applied));
        assertEquals("\"api\";r=99;t=1, \"daily\";r=10", RateLimitResponses.rateLimitField(applied));
    }

    /** A limit that fails closed answers 503; a local fallback's bucket, degraded too, denies with a 429. */
    @Test
    void failClosedIs503AndALocalFallbacksDenialIs429WithItsBucketsRetryAfter() {
        Response closed =
                RateLimitResponses.rejected(List.of(new RateLimitResponses.Applied(api, Decision.degraded(false))));
        assertEquals(503, closed.getStatus());
        assertEquals(1L, closed.getHeaders().getFirst("Retry-After"));
        Decision local = new Decision(false, 0, Duration.ofMillis(1500), Duration.ofSeconds(10), true);
        Response denied = RateLimitResponses.rejected(List.of(new RateLimitResponses.Applied(api, local)));
        assertEquals(429, denied.getStatus());
        assertEquals(2L, denied.getHeaders().getFirst("Retry-After"), "the local bucket's 1.5 s, rounded up");
        Response both = RateLimitResponses.rejected(List.of(
                new RateLimitResponses.Applied(api, local),
                new RateLimitResponses.Applied(LimitPolicy.quota("daily", 10), Decision.degraded(false))));
        assertEquals(503, both.getStatus(), "a limit that fails closed is named first");
    }

    /** 5,000,000 per 30 days overflowed a multiplyExact in every response: a 500 instead of the fields. */
    @Test
    void largeWindowLimitWritesItsFieldsWithoutOverflow() {
        LimitPolicy month = new LimitPolicy("month", 5_000_000, 5_000_000, Duration.ofDays(30), 1);
        Decision allowed = Decision.ofMicros(true, 4_999_999, 0, 2_592_000_000_000L);
        List<RateLimitResponses.Applied> applied = List.of(new RateLimitResponses.Applied(month, allowed));
        assertEquals("\"month\";q=5000000;w=2592000", RateLimitResponses.policyField(applied));
        assertEquals("\"month\";r=4999999;t=2592000", RateLimitResponses.rateLimitField(applied));
    }
}
