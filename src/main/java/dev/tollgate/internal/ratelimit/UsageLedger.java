package dev.tollgate.internal.ratelimit;

import java.util.List;

/**
 * Where a call of a limit with {@code usage-days} writes what its client spent, in the decision's own
 * script ({@code usage.lua}): the ledger's key beside the bucket ({@link StoreKeys#usage}, same Cluster
 * slot), the days it keeps, and the client key (normalised) it names, so an export can say who.
 *
 * @param key the ledger's key
 * @param days how many UTC days are kept, 1..400
 * @param client the client key as the limit normalised it
 */
public record UsageLedger(String key, int days, String client) {

    /** The ledger of the client at {@code storeKey} under {@code limit}; null when the limit keeps no usage. */
    static UsageLedger of(LimitSpec limit, String storeKey, String clientKey) {
        if (!limit.keepsUsage() || !StoreKeys.hasRules(storeKey)) {
            return null;
        }
        return new UsageLedger(
                StoreKeys.usage(storeKey),
                limit.usageDays(),
                limit.keyNormalization().apply(clientKey));
    }

    /** {@code keys} with the ledger last, as the scripts look for it. */
    List<String> keys(List<String> keys) {
        List<String> all = new java.util.ArrayList<>(keys.size() + 1);
        all.addAll(keys);
        all.add(key);
        return all;
    }

    /** {@code args} with the ledger's days and client last. */
    List<String> args(List<String> args) {
        List<String> all = new java.util.ArrayList<>(args.size() + 2);
        all.addAll(args);
        all.add(Integer.toString(days));
        all.add(client);
        return all;
    }
}
