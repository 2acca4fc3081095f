package dev.tollgate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What a limit's and a concurrency limit's values may be: each rule, and the text that states it, once.
 * The builders ({@link Limit}, {@link ConcurrencyLimit}), the values that reach a store ({@link
 * LimitPolicy}) and every configuration source (properties, the environment, a reloaded file, code)
 * check against these, so a bad property's message is the rule's text after the property's name.
 *
 * <p>The ranges come from what Redis's scripts can count exactly (they count in doubles: 2^53) and
 * from what one call may cost Redis (a sliding window keeps an entry per admitted call).
 */
public final class LimitRules {

    /** The largest capacity or refill: 2^53, the last whole number a double (Lua's only number) holds exactly. */
    public static final long MAX_COUNT = 1L << 53;

    /** The longest refill period or window, and the longest a token bucket may take to refill from empty: 100 years. */
    public static final Duration MAX_PERIOD = Duration.ofDays(36_525);

    /** The range of a count ({@link #MAX_COUNT}): a capacity of any algorithm, a credit. */
    public static final String COUNT_RANGE = "from 1 to " + MAX_COUNT + " (2^53)";

    /** The range of a refill period, a window, an override's or a block's length ({@link #periodFits}). */
    public static final String PERIOD_RANGE = "from 1ms to " + text(MAX_PERIOD) + " (100 years)";

    /** The shortest and the longest lease of a concurrency limit's slot. */
    public static final Duration MIN_LEASE = Duration.ofMillis(100);

    public static final Duration MAX_LEASE = Duration.ofDays(1);

    /** The shortest and the longest a server holds the tokens it leased of a limit ({@code lease}). */
    public static final Duration MIN_LIMIT_LEASE = Duration.ofMillis(100);

    public static final Duration MAX_LIMIT_LEASE = Duration.ofMinutes(1);

    /** A limit's lease when none is given: {@link Duration#ZERO}, {@code off}, every call asks Redis. */
    public static final Duration NO_LEASE = Duration.ZERO;

    /**
     * What a lease may take: at most a tenth of the capacity in force divided by the live servers, and at
     * most a tenth of what the bucket holds divided by them, so the leases outstanding stay within a tenth
     * of the capacity (and of what is left); below one call's cost a server does not lease but decides per call.
     */
    public static final int LEASE_SHARE = 10;

    public static final String LIMIT_LEASE_RULE = "off, or a duration from 100ms to 1m such as 1s";

    /** What a limit's or a concurrency limit's name may be. */
    public static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** The rule of {@link #NAME}. */
    public static final String NAME_RULE = "1-64 letters, digits, '_' or '-'";

    /** What a capacity, a refill and a concurrency limit's max-in-flight are written as. */
    public static final String CAPACITY_FORM = "a whole number > 0";

    public static final String REFILL_TOKENS_FORM = "a whole number >= 0";

    public static final String REFILL_TOKENS_RULE = "a whole number from 0 to " + MAX_COUNT + " (2^53)";
    public static final String REFILL_PERIOD_RULE = "a duration " + PERIOD_RANGE + " such as 1s, 500ms, 1m, 1d or PT1S";
    public static final String MAX_IN_FLIGHT_RULE = "a whole number from 1 to 2147483647";
    public static final String LEASE_RULE = "a duration from 100ms to 1d such as 10s";

    /** What a calendar quota's {@code period} may be ({@link CalendarPeriod.Unit}). */
    public static final String PERIOD_UNIT_RULE = "day, week, month or year";

    /** What a calendar quota's {@code zone} may be. */
    public static final String ZONE_RULE = "a time zone id such as UTC, Europe/Berlin or +02:00";

    /** What a calendar quota's {@code anchor} may be, per {@link CalendarPeriod.Unit}. */
    public static final String ANCHOR_RULE = "the day a period starts: 1 for a day; 1-7 for a week (1 Monday .. 7"
            + " Sunday); 1-31 for a month (a shorter month starts on its last day); 1-12 for a year (the month"
            + " it starts, on its first day)";

    /** What a lock's name may be. */
    public static final Pattern LOCK_NAME = Pattern.compile("[A-Za-z0-9_.-]{1,128}");

    /** The rule of {@link #LOCK_NAME}. */
    public static final String LOCK_NAME_RULE = "1-128 letters, digits, '_', '.' or '-'";

    private static final long SLIDING_WINDOW_CAPACITY = 10_000;
    private static final long SLIDING_WINDOW_COST = 1_000;

    private LimitRules() {}

    /** The largest capacity of a limit of {@code algorithm}: 10,000 for a sliding window, else 2^53. */
    public static long largestCapacity(Limit.Algorithm algorithm) {
        return algorithm == Limit.Algorithm.SLIDING_WINDOW ? SLIDING_WINDOW_CAPACITY : MAX_COUNT;
    }

    /** The most one call may cost under {@code algorithm}, whatever the capacity: 1,000 for a sliding window, else 2^53. */
    public static long largestCost(Limit.Algorithm algorithm) {
        return algorithm == Limit.Algorithm.SLIDING_WINDOW ? SLIDING_WINDOW_COST : MAX_COUNT;
    }

    /** The rule of a capacity under {@code algorithm} (null: any algorithm). */
    public static String capacityRule(Limit.Algorithm algorithm) {
        return algorithm == Limit.Algorithm.SLIDING_WINDOW
                ? "a whole number from 1 to " + SLIDING_WINDOW_CAPACITY + " for a sliding-window limit: it keeps one"
                        + " Redis entry (about 127 bytes) per admitted call for a whole window; use token-bucket or"
                        + " fixed-window for more"
                : "a whole number " + COUNT_RANGE + ": beyond it Redis's scripts, which count in"
                        + " doubles, stop counting";
    }

    /** The rule of a cost of a limit of {@code capacity} (null: unknown). */
    public static String costRule(Long capacity) {
        return "a whole number from 1 to the capacity" + (capacity == null ? "" : " (" + capacity + ")")
                + ": a call costing more than the bucket holds could never pass";
    }

    private static String slidingCostRule() {
        return "a whole number from 1 to " + SLIDING_WINDOW_COST + " for a sliding-window limit: one call adds one"
                + " Redis entry per unit of cost while Redis runs nothing else";
    }

    /** Whether {@code n} is {@link #COUNT_RANGE}: what a capacity of any algorithm and a credit may be. */
    public static boolean isCount(long n) {
        return n >= 1 && n <= MAX_COUNT;
    }

    /** Whether {@code name} may name a limit or a concurrency limit. */
    public static boolean isName(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /**
     * Every rule a limit's counting values break, in setting order; a null value is not checked (it is
     * missing or was refused already).
     *
     * @param algorithm how it counts; null: any (the rules of every algorithm, as a bare {@link LimitPolicy} has)
     * @param persist whether a quota's keys are kept ({@code persist}); null: not checked
     */
    public static List<ConfigProblem> check(
            Limit.Algorithm algorithm,
            Long capacity,
            Long refillTokens,
            Duration refillPeriod,
            Long cost,
            Boolean persist) {
        List<ConfigProblem> problems = new ArrayList<>();
        Long validCapacity = capacity;
        if (capacity != null && (capacity < 1 || capacity > largestCapacity(algorithm))) {
            problems.add(ConfigProblem.expected("capacity", capacity, capacityRule(algorithm)));
            validCapacity = null;
        }
        if (refillTokens != null && (refillTokens < 0 || refillTokens > MAX_COUNT)) {
            problems.add(ConfigProblem.expected("refill-tokens", refillTokens, REFILL_TOKENS_RULE));
        }
        if (refillPeriod != null && !periodFits(refillPeriod)) {
            problems.add(ConfigProblem.expected("refill-period", text(refillPeriod), REFILL_PERIOD_RULE));
        }
        if (cost != null && algorithm == Limit.Algorithm.SLIDING_WINDOW && cost > SLIDING_WINDOW_COST) {
            problems.add(ConfigProblem.expected("cost", cost, slidingCostRule()));
        } else if (cost != null && (cost < 1 || (validCapacity != null && cost > validCapacity))) {
            problems.add(ConfigProblem.expected("cost", cost, costRule(validCapacity)));
        }
        if (problems.isEmpty() && algorithm == Limit.Algorithm.TOKEN_BUCKET) {
            refillFromEmpty(capacity, refillTokens, refillPeriod).ifPresent(problems::add);
            if (persist != null) {
                persist(refillTokens, persist).ifPresent(problems::add);
            }
        } else if (problems.isEmpty() && Boolean.TRUE.equals(persist)) {
            problems.add(ConfigProblem.of("persist", true, NOT_A_QUOTA));
        }
        return problems;
    }

    /** The rule {@code anchor} breaks for a period of {@code unit}, if any ({@link #ANCHOR_RULE}). */
    public static List<ConfigProblem> checkAnchor(CalendarPeriod.Unit unit, int anchor) {
        return anchor >= 1 && anchor <= unit.largestAnchor()
                ? List.of()
                : List.of(ConfigProblem.expected(
                        "anchor", anchor, "for a " + unit.configName() + " period, " + ANCHOR_RULE));
    }

    /** Whether {@code d} is a refill period or window: 1 ms to {@link #MAX_PERIOD}. */
    public static boolean periodFits(Duration d) {
        return d.compareTo(Duration.ofMillis(1)) >= 0 && d.compareTo(MAX_PERIOD) <= 0;
    }

    /** Every rule a concurrency limit's values break; a null value is not checked. */
    public static List<ConfigProblem> checkConcurrency(Long maxInFlight, Duration lease) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (maxInFlight != null && (maxInFlight < 1 || maxInFlight > Integer.MAX_VALUE)) {
            problems.add(ConfigProblem.expected("max-in-flight", maxInFlight, MAX_IN_FLIGHT_RULE));
        }
        if (lease != null && (lease.compareTo(MIN_LEASE) < 0 || lease.compareTo(MAX_LEASE) > 0)) {
            problems.add(ConfigProblem.expected("lease", text(lease), LEASE_RULE));
        }
        return problems;
    }

    /**
     * The rule a limit's lease breaks, if any: {@link #NO_LEASE} (off), or {@link #LIMIT_LEASE_RULE}, and
     * only for a token bucket (a window's count cannot be handed out in advance: a token bucket's tokens can).
     */
    public static List<ConfigProblem> checkLease(Limit.Algorithm algorithm, Duration lease) {
        if (lease == null || lease.isZero()) {
            return List.of();
        }
        if (lease.compareTo(MIN_LIMIT_LEASE) < 0 || lease.compareTo(MAX_LIMIT_LEASE) > 0) {
            return List.of(ConfigProblem.expected("lease", text(lease), LIMIT_LEASE_RULE));
        }
        if (algorithm != Limit.Algorithm.TOKEN_BUCKET) {
            return List.of(ConfigProblem.expected(
                    "lease",
                    text(lease),
                    "off for a " + algorithm.configName() + " limit: only a token-bucket limit is leased (a"
                            + " window's count cannot be handed out in advance)"));
        }
        return List.of();
    }

    /** What a lock's (and a counter's) time to live must be. */
    public static final String TTL_RULE = "must be > 0";

    /** Whether {@code ttl} may be a lock's or a counter's time to live: above zero. */
    public static boolean ttlFits(Duration ttl) {
        return !ttl.isNegative() && !ttl.isZero();
    }

    /** Every rule a lock's times break: a ttl above zero, an at-least from zero to the ttl; null is not checked. */
    public static List<ConfigProblem> checkLock(Duration ttl, Duration atLeast) {
        List<ConfigProblem> problems = new ArrayList<>();
        boolean ttlFits = ttl != null && ttlFits(ttl);
        if (ttl != null && !ttlFits) {
            problems.add(ConfigProblem.of("ttl", text(ttl), TTL_RULE));
        }
        if (atLeast != null && atLeast.isNegative()) {
            problems.add(ConfigProblem.of("at-least", text(atLeast), "must be >= 0"));
        } else if (atLeast != null && ttlFits && atLeast.compareTo(ttl) > 0) {
            problems.add(
                    ConfigProblem.of("at-least", text(atLeast), "must be between 0 and the ttl (" + text(ttl) + ")"));
        }
        return problems;
    }

    /** The longest idempotency key taken ({@code Idempotency-Key}), in characters: a UUID is 36. */
    public static final int MAX_IDEMPOTENCY_KEY_LENGTH = 255;

    /** What an idempotency key may be. */
    public static final String IDEMPOTENCY_KEY_RULE = "1 to " + MAX_IDEMPOTENCY_KEY_LENGTH
            + " visible ASCII characters (no space, quote, backslash or control character), such as a UUID";

    /** The shortest idempotency window: a repeat is a retry, seconds after its call. */
    public static final Duration MIN_IDEMPOTENCY_WINDOW = Duration.ofSeconds(1);

    /** The longest idempotency window: each admitted call's record lives that long in Redis. */
    public static final Duration MAX_IDEMPOTENCY_WINDOW = Duration.ofDays(7);

    /** What a limit's idempotency window ({@code idempotency-window}) may be. */
    public static final String IDEMPOTENCY_WINDOW_RULE = "a duration from 1s to 7d such as 1d";

    /**
     * What is wrong with {@code key} as an idempotency key ({@link #IDEMPOTENCY_KEY_RULE}), the one check of
     * its length and characters, made before it is hashed; empty when it is one.
     */
    public static java.util.Optional<String> idempotencyKeyProblem(String key) {
        if (key == null || key.isEmpty()) {
            return java.util.Optional.of("an idempotency key is " + IDEMPOTENCY_KEY_RULE + ", but it was empty");
        }
        if (key.length() > MAX_IDEMPOTENCY_KEY_LENGTH) {
            return java.util.Optional.of(
                    "an idempotency key is " + IDEMPOTENCY_KEY_RULE + ", but it had " + key.length() + " characters");
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x21 || c > 0x7e || c == '"' || c == '\\') {
                return java.util.Optional.of("an idempotency key is " + IDEMPOTENCY_KEY_RULE + ", but character "
                        + (i + 1) + " was U+" + String.format("%04X", (int) c));
            }
        }
        return java.util.Optional.empty();
    }

    /** A limit that keeps no usage ({@code usage-days=off}). */
    public static final int USAGE_OFF = 0;

    /** The longest a limit keeps its clients' usage per day: 400 days, a year and a billing quarter's slack. */
    public static final int MAX_USAGE_DAYS = 400;

    /** The most clients one usage read lists ({@link RateLimitAdmin#usage}). */
    public static final int MAX_USAGE_TOP = 100_000;

    /** What is wrong with reading usage from {@code from} to {@code to} for the {@code top} clients, if anything. */
    public static java.util.Optional<String> usageReadProblem(
            java.time.LocalDate from, java.time.LocalDate to, int top) {
        if (from == null || to == null || to.isBefore(from)) {
            return java.util.Optional.of(
                    "usage is read from a day to the same or a later day, but was from " + from + " to " + to);
        }
        if (java.time.temporal.ChronoUnit.DAYS.between(from, to) >= MAX_USAGE_DAYS) {
            return java.util.Optional.of(
                    "usage is read for at most " + MAX_USAGE_DAYS + " days, but was from " + from + " to " + to);
        }
        if (top < 1 || top > MAX_USAGE_TOP) {
            return java.util.Optional.of("top must be 1 to " + MAX_USAGE_TOP + ", but was " + top);
        }
        return java.util.Optional.empty();
    }

    /** What a limit's {@code usage-days} may be. */
    public static final String USAGE_DAYS_RULE =
            "off, or the days each client's daily usage is kept, 1 to " + MAX_USAGE_DAYS;

    /** What is wrong with {@code days} as a limit's usage retention, if anything. */
    public static java.util.Optional<ConfigProblem> usageDaysProblem(int days) {
        return days == USAGE_OFF || (days >= 1 && days <= MAX_USAGE_DAYS)
                ? java.util.Optional.empty()
                : java.util.Optional.of(ConfigProblem.expected("usage-days", days, USAGE_DAYS_RULE));
    }

    /**
     * A limit's {@code usage-days} as written: {@code off}, or whole days 1 to {@value #MAX_USAGE_DAYS}.
     *
     * @throws NumberFormatException when it is neither
     */
    public static int parseUsageDays(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("off")) {
            return USAGE_OFF;
        }
        int days = Integer.parseInt(t);
        if (days < 1 || days > MAX_USAGE_DAYS) {
            throw new NumberFormatException(t);
        }
        return days;
    }

    /** Whether {@code window} may be a limit's idempotency window: 1 s to 7 days. */
    public static boolean idempotencyWindowFits(Duration window) {
        return window.compareTo(MIN_IDEMPOTENCY_WINDOW) >= 0 && window.compareTo(MAX_IDEMPOTENCY_WINDOW) <= 0;
    }

    /** What a call's settled cost ({@link Estimate#settle}) may be. */
    public static final String SETTLED_COST_RULE = "a whole number from 0 to " + MAX_COUNT + " (2^53)";

    /** What is wrong with {@code actual} as a settled cost; empty when it is one. */
    public static java.util.Optional<String> settledCostProblem(long actual) {
        return actual >= 0 && actual <= MAX_COUNT
                ? java.util.Optional.empty()
                : java.util.Optional.of("a settled cost is " + SETTLED_COST_RULE + ", but was " + actual);
    }

    private static final String NOT_A_QUOTA = "only a token-bucket quota that never refills (refill-tokens=0)"
            + " persists its keys; every other limit's keys expire once forgetting them changes nothing";

    private static java.util.Optional<ConfigProblem> persist(Long refillTokens, boolean persist) {
        boolean quota = refillTokens != null && refillTokens == 0;
        if (quota && !persist) {
            return java.util.Optional.of(ConfigProblem.of(
                    "refill-tokens",
                    0,
                    "a quota that never refills keeps one Redis key per client forever: set persist=true to"
                            + " accept that, or give it refill-tokens > 0, or use algorithm=fixed-window for a"
                            + " quota per period"));
        }
        return persist && !quota
                ? java.util.Optional.of(ConfigProblem.of("persist", true, NOT_A_QUOTA))
                : java.util.Optional.empty();
    }

    /** A token bucket whose empty bucket takes longer than {@link #MAX_PERIOD} to refill: its key would outlive it. */
    private static java.util.Optional<ConfigProblem> refillFromEmpty(Long capacity, Long tokens, Duration period) {
        if (capacity == null || tokens == null || period == null || tokens == 0) {
            return java.util.Optional.empty();
        }
        Duration d = LimitPolicy.refillFromEmpty(capacity, tokens, period);
        if (d.compareTo(MAX_PERIOD) <= 0) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new ConfigProblem(
                List.of("capacity", "refill-tokens", "refill-period"),
                List.of(Long.toString(capacity), Long.toString(tokens), text(period)),
                "an empty bucket refills in " + d.toDays() + " days; expected at most 100 years, the longest a"
                        + " bucket's key may live: for a quota that never comes back use refill-tokens=0 with"
                        + " persist=true"));
    }

    /** {@code d} as a setting says it: {@code 1d}, {@code 5s}, {@code 250ms}, else ISO-8601. */
    static String text(Duration d) {
        if (d.isNegative() || d.getSeconds() > Long.MAX_VALUE / 1000 - 1 || d.toNanosPart() % 1_000_000 != 0) {
            return d.toString();
        }
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s > 0 && s % 86_400 == 0) {
            return s / 86_400 + "d";
        }
        return s > 0 && s % 3600 == 0 ? s / 3600 + "h" : s > 0 && s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
