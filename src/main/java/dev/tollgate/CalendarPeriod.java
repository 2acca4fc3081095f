package dev.tollgate;

import java.time.DateTimeException;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;
import java.util.List;
import java.util.Locale;

/**
 * The period of a calendar quota ({@link Limit#calendar}): a day, a week, a month or a year that starts
 * at local midnight in {@code zone}, on the {@code anchor} day. The periods follow the zone's rules, so
 * a day across a daylight-saving change lasts 23 or 25 hours and a month lasts its own 28 to 31 days.
 *
 * <p>Which period an instant belongs to is decided by Redis's clock: the engine computes a few period
 * starts around its own now ({@link #startsAround}) and the script picks the one Redis {@code TIME} falls
 * in.
 *
 * @param unit how long a period is
 * @param zone where its midnight is; default UTC
 * @param anchor the day it starts ({@link LimitRules#ANCHOR_RULE}): a week's ISO day (1 Monday .. 7
 *     Sunday), a month's day (1-31; a shorter month starts on its last day), a year's month (1-12, on its
 *     first day); a day's anchor is 1. Default 1
 */
public record CalendarPeriod(Unit unit, ZoneId zone, int anchor) {

    /** How long a calendar quota's period is ({@code period}). */
    public enum Unit {
        DAY(Duration.ofHours(25), 1),
        WEEK(Duration.ofDays(7).plusHours(1), 7),
        MONTH(Duration.ofDays(31).plusHours(1), 31),
        YEAR(Duration.ofDays(366).plusHours(1), 12);

        private final Duration longest;
        private final int largestAnchor;

        Unit(Duration longest, int largestAnchor) {
            this.longest = longest;
            this.largestAnchor = largestAnchor;
        }

        /** {@code day}, {@code week}, {@code month}, {@code year}. */
        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** The longest a period of this unit lasts (an hour more than its longest calendar length: DST). */
        public Duration longest() {
            return longest;
        }

        /** The largest anchor of this unit: 1, 7, 31 or 12. */
        public int largestAnchor() {
            return largestAnchor;
        }

        /** The unit {@code text} names; {@link IllegalArgumentException} naming {@link LimitRules#PERIOD_UNIT_RULE}. */
        public static Unit parse(String text) {
            for (Unit u : values()) {
                if (u.configName().equals(text.trim().toLowerCase(Locale.ROOT))) {
                    return u;
                }
            }
            throw new IllegalArgumentException("expected " + LimitRules.PERIOD_UNIT_RULE);
        }
    }

    public CalendarPeriod {
        if (unit == null || zone == null) {
            throw new IllegalArgumentException("a calendar period needs a unit and a zone");
        }
        List<ConfigProblem> problems = LimitRules.checkAnchor(unit, anchor);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(problems.get(0).describe(""));
        }
    }

    /** A period of {@code unit} starting at midnight UTC on its first day. */
    public static CalendarPeriod of(Unit unit) {
        return new CalendarPeriod(unit, java.time.ZoneOffset.UTC, 1);
    }

    /** This period in another zone. */
    public CalendarPeriod in(ZoneId newZone) {
        return new CalendarPeriod(unit, newZone, anchor);
    }

    /** This period anchored on another day. */
    public CalendarPeriod anchoredOn(int newAnchor) {
        return new CalendarPeriod(unit, zone, newAnchor);
    }

    /** The zone {@code text} names; {@link IllegalArgumentException} naming {@link LimitRules#ZONE_RULE}. */
    public static ZoneId parseZone(String text) {
        try {
            return ZoneId.of(text.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("expected " + LimitRules.ZONE_RULE, e);
        }
    }

    /** The start of the period {@code t} is in. */
    public Instant start(Instant t) {
        return midnight(startDate(t.atZone(zone).toLocalDate()));
    }

    /** The start of the period after the one {@code t} is in. */
    public Instant end(Instant t) {
        return midnight(shift(startDate(t.atZone(zone).toLocalDate()), 1));
    }

    /**
     * The starts of the periods from {@code before} periods before the one {@code t} is in to {@code
     * after} periods after it, in microseconds since the epoch, ascending: {@code before + after + 1}
     * periods, {@code before + after + 2} starts.
     */
    public long[] startsAround(Instant t, int before, int after) {
        LocalDate current = startDate(t.atZone(zone).toLocalDate());
        long[] starts = new long[before + after + 2];
        for (int i = 0; i < starts.length; i++) {
            Instant s = midnight(shift(current, i - before));
            starts[i] = Math.addExact(Math.multiplyExact(s.getEpochSecond(), 1_000_000L), s.getNano() / 1000);
        }
        return starts;
    }

    private Instant midnight(LocalDate d) {
        return d.atStartOfDay(zone).toInstant();
    }

    private LocalDate startDate(LocalDate d) {
        return switch (unit) {
            case DAY -> d;
            case WEEK -> d.with(TemporalAdjusters.previousOrSame(DayOfWeek.of(anchor)));
            case MONTH -> {
                LocalDate s = anchored(YearMonth.from(d));
                yield s.isAfter(d) ? anchored(YearMonth.from(d).minusMonths(1)) : s;
            }
            case YEAR -> {
                LocalDate s = LocalDate.of(d.getYear(), anchor, 1);
                yield s.isAfter(d) ? s.minusYears(1) : s;
            }
        };
    }

    private LocalDate shift(LocalDate start, int periods) {
        return switch (unit) {
            case DAY -> start.plusDays(periods);
            case WEEK -> start.plusWeeks(periods);
            case MONTH -> anchored(YearMonth.from(start).plusMonths(periods));
            case YEAR -> start.plusYears(periods);
        };
    }

    /** The anchor day of {@code month}: its last day when the month is shorter. */
    private LocalDate anchored(YearMonth month) {
        return month.atDay(Math.min(anchor, month.lengthOfMonth()));
    }

    /** {@code month in Europe/Berlin from day 15}, as logs and the console say it. */
    @Override
    public String toString() {
        return unit.configName() + " in " + zone.getId() + (unit == Unit.DAY ? "" : " from " + anchor);
    }
}
