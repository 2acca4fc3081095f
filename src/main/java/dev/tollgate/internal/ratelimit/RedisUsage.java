package dev.tollgate.internal.ratelimit;

import dev.tollgate.ClientUsage;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.internal.redis.RedisException;
import dev.tollgate.internal.redis.RedisLink;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Reads the usage ledgers {@code usage.lua} writes ({@link UsageLedger}): one client's by its key, or
 * every client's of a limit by {@code SCAN}ning every master for the limit's ledgers.
 */
public final class RedisUsage {

    private final RedisLink redis;
    private final StoreKeys keys;

    public RedisUsage(RedisLink redis, StoreKeys keys) {
        this.redis = redis;
        this.keys = keys;
    }

    /** Every client's usage of {@code limit} from {@code from} to {@code to}, the most first, at most {@code top}. */
    public List<ClientUsage> all(String limit, LocalDate from, LocalDate to, int top) {
        List<ClientUsage> all = new ArrayList<>();
        try {
            for (String key : redis.keysMatching(keys.usagePattern(limit))) {
                ClientUsage u = read(redis.hgetAll(key), from, to);
                if (u != null && u.units() > 0) {
                    all.add(u);
                }
            }
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not answer a read of limit '" + limit + "''s usage", e);
        }
        all.sort(Comparator.comparingLong(ClientUsage::units).reversed().thenComparing(ClientUsage::client));
        return all.size() > top ? List.copyOf(all.subList(0, top)) : List.copyOf(all);
    }

    /** The usage of the client at {@code storeKey}, named {@code client}, from {@code from} to {@code to}. */
    public ClientUsage one(String storeKey, String client, LocalDate from, LocalDate to) {
        Map<String, String> ledger;
        try {
            ledger = redis.hgetAll(StoreKeys.usage(storeKey));
        } catch (RedisException e) {
            throw new StoreUnavailableException("Redis did not answer a read of a client's usage", e);
        }
        ClientUsage u = read(ledger, from, to);
        return u == null ? ClientUsage.of(client, new TreeMap<>()) : u;
    }

    /** A ledger's days within {@code from}..{@code to}; null when it names no client (not Tollgate's). */
    static ClientUsage read(Map<String, String> ledger, LocalDate from, LocalDate to) {
        String client = ledger.get("c");
        if (client == null) {
            return null;
        }
        SortedMap<LocalDate, Long> days = new TreeMap<>();
        long first = from.toEpochDay();
        long last = to.toEpochDay();
        ledger.forEach((field, value) -> {
            if (!field.equals("c")) {
                try {
                    long day = Long.parseLong(field);
                    long units = Long.parseLong(value);
                    if (day >= first && day <= last && units > 0) {
                        days.put(LocalDate.ofEpochDay(day), units);
                    }
                } catch (NumberFormatException notOurs) {
                    // A field Tollgate did not write counts for nothing.
                }
            }
        });
        return ClientUsage.of(client, days);
    }
}
