package dev.tollgate.internal.ratelimit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.LimitPolicy;
import dev.tollgate.testing.ManualClock;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** The in-process calendar quota decides as {@code calendar.lua} does, on the store's clock. */
class InProcessCalendarQuotaTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private final ManualClock clock = new ManualClock();
    private final InProcessRateLimitStore store = InProcessRateLimitStore.of(Algorithm.CALENDAR, clock);

    private static long berlin(String localDateTime) {
        Instant i = LocalDateTime.parse(localDateTime).atZone(BERLIN).toInstant();
        return i.getEpochSecond() * 1_000_000 + i.getNano() / 1000;
    }

    private void at(long micros) {
        clock.add(micros - clock.nowMicros());
    }

    @Test
    void aMonthFromThe15thResetsAtLocalMidnightAcrossTheAutumnChange() {
        LimitPolicy quota =
                LimitPolicy.calendar("monthly", 2, new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 15));
        at(berlin("2026-11-14T23:59:59"));
        Spent first = store.spend(quota, "k");
        assertTrue(first.decision().allowed());
        assertEquals(berlin("2026-11-15T00:00"), first.mark());
        assertTrue(store.tryConsume(quota, "k").allowed());
        assertFalse(store.tryConsume(quota, "k").allowed());
        assertEquals(1_000_000, store.tryConsume(quota, "k").retryAfter().toNanos() / 1000);

        at(berlin("2026-11-15T00:00"));
        Spent next = store.spend(quota, "k");
        assertTrue(next.decision().allowed(), "back at local midnight of the 15th");
        assertEquals(berlin("2026-12-15T00:00"), next.mark());
        store.refund(quota, "k", first.mark());
        assertEquals(0, store.tryConsume(quota, "k").remaining(), "the period over gets nothing back");
    }

    @Test
    void aDayAcrossTheSpringChangeLasts23Hours() {
        LimitPolicy quota = LimitPolicy.calendar(
                "daily", 1, CalendarPeriod.of(CalendarPeriod.Unit.DAY).in(BERLIN));
        at(berlin("2026-03-29T00:00"));
        assertEquals(
                23L * 3600 * 1_000_000,
                store.tryConsume(quota, "k").resetAfter().toNanos() / 1000);
    }
}
