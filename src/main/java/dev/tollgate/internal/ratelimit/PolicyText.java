package dev.tollgate.internal.ratelimit;

import dev.tollgate.LimitPolicy;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * A policy and a duration in a person's words, as the README writes them: "5 per second, bursts of 20",
 * "3 per hour, bursts of 3", "1.2 s", "15 min". The one formatter of whatever shows a policy or a time to a
 * person (the console's page reads these texts from its JSON).
 */
public final class PolicyText {

    private PolicyText() {}

    /** {@code policy} of {@code algorithm} in words. */
    public static String of(Algorithm algorithm, LimitPolicy policy) {
        String cost = policy.cost() > 1 ? ", each call costs " + count(policy.cost()) : "";
        if (policy.capacity() >= LimitPolicy.MAX_COUNT && policy.refillTokens() >= policy.capacity()) {
            return "unlimited";
        }
        if (algorithm != Algorithm.TOKEN_BUCKET) {
            String window = algorithm == Algorithm.FIXED_WINDOW ? "fixed window" : "sliding window";
            return count(policy.capacity()) + " " + per(policy.refillPeriod()) + " (" + window + ")" + cost;
        }
        if (!policy.refills()) {
            return "a quota of " + count(policy.capacity()) + ", never refilled" + cost;
        }
        return count(policy.refillTokens()) + " " + per(policy.refillPeriod()) + ", bursts of "
                + count(policy.capacity()) + cost;
    }

    /** "per second", "per hour", or "per 10 s" for a period that is not one unit. */
    static String per(Duration period) {
        if (period.equals(Duration.ofSeconds(1))) {
            return "per second";
        }
        if (period.equals(Duration.ofMinutes(1))) {
            return "per minute";
        }
        if (period.equals(Duration.ofHours(1))) {
            return "per hour";
        }
        if (period.equals(Duration.ofDays(1))) {
            return "per day";
        }
        return "per " + duration(period);
    }

    /**
     * {@code d} in the largest unit under which it reads as at least 1, to one decimal where that is not whole:
     * "250 ms", "1.2 s", "15 min", "1.5 h", "2 d".
     */
    public static String duration(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms < 60_000) {
            return unit(ms, 1000, "s");
        }
        if (ms < 3_600_000) {
            return unit(ms, 60_000, "min");
        }
        if (ms < 86_400_000) {
            return unit(ms, 3_600_000, "h");
        }
        return unit(ms, 86_400_000, "d");
    }

    private static String unit(long ms, long per, String name) {
        BigDecimal v = BigDecimal.valueOf(ms).divide(BigDecimal.valueOf(per), 1, RoundingMode.HALF_UP);
        return v.stripTrailingZeros().toPlainString() + " " + name;
    }

    private static String count(long n) {
        return String.format(java.util.Locale.ROOT, "%,d", n);
    }
}
