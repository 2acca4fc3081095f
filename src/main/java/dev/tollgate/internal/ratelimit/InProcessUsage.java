package dev.tollgate.internal.ratelimit;

import dev.tollgate.ClientUsage;
import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.core.MicrosClock;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The usage ledgers of an in-process store, as {@code usage.lua} keeps them in Redis: per client, its
 * units per UTC day of the store's clock, days past the retention dropped, the ledger forgotten a day
 * after its retention once the client stops. Bounded: at most {@value #MAX_LEDGERS} ledgers (clients
 * times limits that keep usage), beyond which an expired one, else the least recently used of a
 * sample, is forgotten ({@link ExpiringMap}).
 */
public final class InProcessUsage {

    /** Ledgers held at most: clients times limits that keep usage. */
    public static final int MAX_LEDGERS = 100_000;

    private static final long DAY_MICROS = 86_400_000_000L;

    private record Ledger(String client, SortedMap<Long, Long> days, long expiresAt) {}

    private final ExpiringMap<Ledger> ledgers;

    InProcessUsage(MicrosClock clock) {
        this.ledgers = new ExpiringMap<>(clock, Ledger::expiresAt, MAX_LEDGERS, l -> 1);
    }

    /** Adds {@code units} (negative: given back, never below 0) to today's day of {@code usage}; null: none. */
    void add(UsageLedger usage, long units) {
        if (usage == null || units == 0) {
            return;
        }
        ledgers.update(usage.key(), (live, now) -> {
            long day = Math.floorDiv(now, DAY_MICROS);
            SortedMap<Long, Long> days = new TreeMap<>(live == null ? Map.of() : live.days());
            long n = days.getOrDefault(day, 0L) + units;
            if (n <= 0) {
                days.remove(day);
            } else {
                days.put(day, n);
            }
            days.headMap(day - usage.days() + 1).clear();
            long expires = now + (usage.days() + 1L) * DAY_MICROS;
            return new ExpiringMap.Updated<>(new Ledger(usage.client(), days, expires), null);
        });
    }

    /** Every client's usage of limit {@code limit}, the most first, at most {@code top}. */
    public List<ClientUsage> all(String limit, LocalDate from, LocalDate to, int top) {
        String tag = ":{" + limit + ":";
        List<ClientUsage> all = new ArrayList<>();
        ledgers.live().forEach((key, ledger) -> {
            if (key.contains(tag)) {
                ClientUsage u = read(ledger, from, to);
                if (u.units() > 0) {
                    all.add(u);
                }
            }
        });
        all.sort(Comparator.comparingLong(ClientUsage::units).reversed().thenComparing(ClientUsage::client));
        return all.size() > top ? List.copyOf(all.subList(0, top)) : List.copyOf(all);
    }

    /** The usage in the ledger at {@code key}, of {@code client}. */
    public ClientUsage one(String key, String client, LocalDate from, LocalDate to) {
        return ledgers.get(key).map(l -> read(l, from, to)).orElseGet(() -> ClientUsage.of(client, new TreeMap<>()));
    }

    private static ClientUsage read(Ledger ledger, LocalDate from, LocalDate to) {
        SortedMap<LocalDate, Long> days = new TreeMap<>();
        ledger.days()
                .subMap(from.toEpochDay(), to.toEpochDay() + 1)
                .forEach((day, units) -> days.put(LocalDate.ofEpochDay(day), units));
        return ClientUsage.of(ledger.client(), days);
    }
}
