package dev.tollgate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CalendarPeriodTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static Instant berlin(String localDateTime) {
        return LocalDateTime.parse(localDateTime).atZone(BERLIN).toInstant();
    }

    private static long micros(Instant i) {
        return i.getEpochSecond() * 1_000_000 + i.getNano() / 1000;
    }

    @Test
    void aMonthFromThe31stStartsOnTheLastDayOfShorterMonthsAtLocalMidnight() {
        CalendarPeriod p = new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 31);
        // 2028 is a leap year; Berlin moves to summer time on 26 March 2028.
        assertEquals(berlin("2028-01-31T00:00"), p.start(berlin("2028-02-15T12:00")));
        assertEquals(berlin("2028-02-29T00:00"), p.start(berlin("2028-03-01T00:00")));
        assertEquals(berlin("2028-03-31T00:00"), p.end(berlin("2028-03-30T23:59:59.999999")));
        assertEquals(berlin("2028-03-31T00:00"), p.start(berlin("2028-03-31T00:00")));
        assertEquals(berlin("2028-04-30T00:00"), p.end(berlin("2028-04-01T00:00")));
        assertEquals(berlin("2027-02-28T00:00"), p.start(berlin("2027-03-01T00:00")));
        // 29 February 00:00 CET to 31 March 00:00 CEST: 31 days less the hour summer time took.
        assertEquals(
                Duration.ofDays(31).minusHours(1),
                Duration.between(p.start(berlin("2028-03-10T00:00")), p.end(berlin("2028-03-10T00:00"))));
        assertEquals("2028-03-30T22:00:00Z", p.end(berlin("2028-03-10T00:00")).toString(), "local, not UTC, midnight");
    }

    @Test
    void aMonthFromThe15thAcrossTheAutumnChange() {
        CalendarPeriod p = new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 15);
        Instant inIt = berlin("2026-10-30T10:00");
        assertEquals(berlin("2026-10-15T00:00"), p.start(inIt));
        assertEquals(berlin("2026-11-15T00:00"), p.end(inIt));
        assertEquals(Duration.ofDays(31).plusHours(1), Duration.between(p.start(inIt), p.end(inIt)));
        assertEquals(berlin("2026-09-15T00:00"), p.start(berlin("2026-10-14T23:59:59")));
    }

    @Test
    void aDayAcrossDstLasts23Or25Hours() {
        CalendarPeriod day = CalendarPeriod.of(CalendarPeriod.Unit.DAY).in(BERLIN);
        Instant spring = berlin("2026-03-29T12:00");
        Instant autumn = berlin("2026-10-25T12:00");
        assertEquals(Duration.ofHours(23), Duration.between(day.start(spring), day.end(spring)));
        assertEquals(Duration.ofHours(25), Duration.between(day.start(autumn), day.end(autumn)));
    }

    @Test
    void aWeekStartsOnItsAnchorDayAndAYearInItsAnchorMonth() {
        CalendarPeriod week = new CalendarPeriod(CalendarPeriod.Unit.WEEK, BERLIN, 1);
        // Wednesday 2 December 2026: the week began on Monday 30 November.
        assertEquals(berlin("2026-11-30T00:00"), week.start(berlin("2026-12-02T05:00")));
        CalendarPeriod fiscal = new CalendarPeriod(CalendarPeriod.Unit.YEAR, BERLIN, 4);
        assertEquals(berlin("2026-04-01T00:00"), fiscal.start(berlin("2027-03-31T23:00")));
        assertEquals(berlin("2027-04-01T00:00"), fiscal.end(berlin("2027-03-31T23:00")));
    }

    @Test
    void startsAroundAnInstantAreThePeriodsBeforeAndAfterAscending() {
        CalendarPeriod p = new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 31);
        long[] starts = p.startsAround(berlin("2028-03-10T00:00"), 1, 1);
        assertEquals(
                Arrays.toString(new long[] {
                    micros(berlin("2028-01-31T00:00")),
                    micros(berlin("2028-02-29T00:00")),
                    micros(berlin("2028-03-31T00:00")),
                    micros(berlin("2028-04-30T00:00"))
                }),
                Arrays.toString(starts));
    }

    @Test
    void everyInstantIsInThePeriodItNames() {
        CalendarPeriod p = new CalendarPeriod(CalendarPeriod.Unit.MONTH, BERLIN, 30);
        ZonedDateTime t = ZonedDateTime.of(2026, 1, 1, 0, 30, 0, 0, BERLIN);
        for (int h = 0; h < 24 * 800; h += 7) {
            Instant i = t.plusHours(h).toInstant();
            assertTrue(!p.start(i).isAfter(i) && p.end(i).isAfter(i), i.toString());
            assertEquals(p.end(i), p.start(p.end(i)), "the next period starts where this one ends: " + i);
        }
    }

    @Test
    void anAnchorOutsideItsUnitIsRefusedNamingTheRule() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> new CalendarPeriod(CalendarPeriod.Unit.WEEK, BERLIN, 8));
        assertTrue(e.getMessage().contains("anchor=8"), e.getMessage());
        assertTrue(e.getMessage().contains("1-7 for a week"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CalendarPeriod.Unit.parse("fortnight"));
        assertThrows(IllegalArgumentException.class, () -> CalendarPeriod.parseZone("Mars/Olympus"));
    }
}
