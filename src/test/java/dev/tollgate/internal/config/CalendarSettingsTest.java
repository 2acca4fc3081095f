package dev.tollgate.internal.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tollgate.CalendarPeriod;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CalendarSettingsTest {

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
    void aCalendarQuotaReadsItsPeriodZoneAndAnchor() {
        LimitSpec spec = read(
                        "tollgate.limits.monthly.algorithm", "calendar",
                        "tollgate.limits.monthly.capacity", "10000",
                        "tollgate.limits.monthly.period", "month",
                        "tollgate.limits.monthly.zone", "Europe/Berlin",
                        "tollgate.limits.monthly.anchor", "15")
                .limits()
                .get("monthly");
        assertEquals(Algorithm.CALENDAR, spec.algorithm());
        assertEquals(
                new CalendarPeriod(CalendarPeriod.Unit.MONTH, ZoneId.of("Europe/Berlin"), 15),
                spec.policy().calendar());
        assertEquals(10000, spec.policy().capacity());
        assertEquals(CalendarPeriod.Unit.MONTH.longest(), spec.policy().refillPeriod());
    }

    @Test
    void theZoneIsUtcAndTheAnchorTheFirstUnlessGiven() {
        LimitSpec spec = read(
                        "tollgate.limits.daily.algorithm", "calendar",
                        "tollgate.limits.daily.capacity", "5",
                        "tollgate.limits.daily.period", "day")
                .limits()
                .get("daily");
        assertEquals(CalendarPeriod.of(CalendarPeriod.Unit.DAY), spec.policy().calendar());
    }

    @Test
    void everyBadCalendarSettingIsNamedInOneMessage() {
        String e = error(
                "tollgate.limits.a.algorithm", "calendar",
                "tollgate.limits.a.capacity", "5",
                "tollgate.limits.b.algorithm", "calendar",
                "tollgate.limits.b.capacity", "5",
                "tollgate.limits.b.period", "week",
                "tollgate.limits.b.anchor", "8",
                "tollgate.limits.c.algorithm", "calendar",
                "tollgate.limits.c.capacity", "5",
                "tollgate.limits.c.period", "fortnight",
                "tollgate.limits.c.zone", "Mars/Olympus",
                "tollgate.limits.d.algorithm", "calendar",
                "tollgate.limits.d.capacity", "5",
                "tollgate.limits.d.period", "month",
                "tollgate.limits.d.refill-period", "30d",
                "tollgate.limits.e.capacity", "5",
                "tollgate.limits.e.refill-tokens", "5",
                "tollgate.limits.e.period", "month");
        assertTrue(e.contains("tollgate.limits.a.period"), e);
        assertTrue(e.contains("tollgate.limits.b.anchor=8"), e);
        assertTrue(e.contains("1-7 for a week"), e);
        assertTrue(e.contains("tollgate.limits.c.period=fortnight (expected day, week, month or year)"), e);
        assertTrue(e.contains("tollgate.limits.c.zone=Mars/Olympus"), e);
        assertTrue(e.contains("tollgate.limits.d.refill-period=30d"), e);
        assertTrue(e.contains("tollgate.limits.e.period=month"), e);
    }
}
