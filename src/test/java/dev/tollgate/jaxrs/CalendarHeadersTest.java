package dev.tollgate.jaxrs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A calendar quota's {@code RateLimit-Policy} says the length of the period that ends when Redis said. */
class CalendarHeadersTest {

    private static final LimitPolicy MONTHLY =
            LimitPolicy.calendar("monthly", 1000, CalendarPeriod.of(CalendarPeriod.Unit.MONTH));

    private static String policyFieldEndingAt(String instant) {
        long untilEnd = Duration.between(Instant.now(), Instant.parse(instant)).toNanos() / 1000;
        Decision d = Decision.ofMicros(true, 10, 0, untilEnd);
        return RateLimitResponses.policyField(List.of(new RateLimitResponses.Applied(MONTHLY, d, 1, 1000)));
    }

    @Test
    void theWindowIsTheLengthOfTheMonthInForce() {
        assertEquals("\"monthly\";q=1000;w=" + 28 * 86_400, policyFieldEndingAt("2100-03-01T00:00:00Z"));
        assertEquals("\"monthly\";q=1000;w=" + 29 * 86_400, policyFieldEndingAt("2096-03-01T00:00:00Z"));
        assertEquals("\"monthly\";q=1000;w=" + 30 * 86_400, policyFieldEndingAt("2096-05-01T00:00:00Z"));
        assertEquals("\"monthly\";q=1000;w=" + 31 * 86_400, policyFieldEndingAt("2096-06-01T00:00:00Z"));
    }
}
