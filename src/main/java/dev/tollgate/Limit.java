package dev.tollgate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One configured limit, typed: how it counts, its capacity and refill (or window), what one call costs,
 * whose bucket a call spends from and what it decides without Redis. Built by {@link #tokenBucket},
 * {@link #fixedWindow} or {@link #slidingWindow}, whose {@link Builder#build()} checks every value against
 * {@link LimitRules} and reports every problem together. Properties ({@code tollgate.limits.<name>.*}),
 * the environment and {@code tollgate.config.file} are read onto the same builder.
 *
 * <pre>{@code
 * Limit orders = Limit.tokenBucket("orders")
 *         .capacity(20)
 *         .refill(5, Duration.ofSeconds(1))
 *         .key(Key.header("X-Api-Key"))
 *         .localFallback(true)
 *         .build();
 * Limit month = Limit.fixedWindow("month").capacity(5_000_000).window(Duration.ofDays(30)).build();
 * }</pre>
 *
 * @param name used in keys, headers, metrics and logs: {@link LimitRules#NAME_RULE}
 * @param algorithm how it counts
 * @param capacity a token bucket's size, a window's calls per window
 * @param refillTokens a token bucket's tokens back per {@code refillPeriod} (0: a quota that never
 *     refills); a window's {@code capacity}
 * @param refillPeriod a token bucket's refill period, a window's length
 * @param cost what one call spends, unless the call says otherwise; default 1
 * @param key whose bucket a call spends from; default {@link Key#ip()}
 * @param keyNormalization what is done to a client key before it names a bucket; default {@code NFC,
 *     TRIM}
 * @param failOpen whether a call is admitted while Redis cannot be asked; default true
 * @param localFallback whether each server decides by its share of the limit, in process, while Redis
 *     cannot be asked; default false
 * @param shadow whether a denial is only counted and logged, never given; default false
 * @param persist whether a quota that never refills keeps its keys for ever (required for such a quota,
 *     refused for any other limit)
 * @param candidate a policy tried beside this one on the same calls, which never denies ({@code shadow.*});
 *     it has this limit's name, key, normalization and degraded decision
 * @param calendar a calendar quota's period ({@code period}, {@code zone}, {@code anchor}); null for every
 *     other algorithm. Its {@code refillPeriod} is the period's longest length ({@link
 *     CalendarPeriod.Unit#longest()})
 * @param lease how long a server holds tokens it takes from a client's shared bucket in advance, to spend
 *     them in memory ({@link LimitRules#LIMIT_LEASE_RULE}; token buckets only); default {@link
 *     LimitRules#NO_LEASE}: every call asks Redis. See the reference's "Leased limits"
 * @param idempotencyWindow how long an admitted call's idempotency key makes its repeats admitted again
 *     without spending (1 s to 7 days); empty (the default): no call is a repeat
 * @param usageDays how many days each client's usage per UTC day is kept for export ({@code
 *     usage-days}, 1 to 400; {@link RateLimitAdmin#usage}); {@link LimitRules#USAGE_OFF} (the default): none
 */
public record Limit(
        String name,
        Algorithm algorithm,
        long capacity,
        long refillTokens,
        Duration refillPeriod,
        long cost,
        Key key,
        Set<KeyStep> keyNormalization,
        boolean failOpen,
        boolean localFallback,
        boolean shadow,
        boolean persist,
        Optional<Limit> candidate,
        CalendarPeriod calendar,
        Duration lease,
        Optional<Duration> idempotencyWindow,
        int usageDays) {

    /** How a limit counts ({@code algorithm}). */
    public enum Algorithm {
        /** {@code capacity} tokens, {@code refill-tokens} back every {@code refill-period}: bursts, then a steady rate. */
        TOKEN_BUCKET,
        /** {@code capacity} calls per window, counted per calendar window: cheap, lets 2x through at a boundary. */
        FIXED_WINDOW,
        /** {@code capacity} calls in any window: exact, costs memory per admitted call. */
        SLIDING_WINDOW,
        /** {@code capacity} calls per calendar day, week, month or year in a time zone ({@link CalendarPeriod}). */
        CALENDAR;

        /** {@code token-bucket}, {@code fixed-window}, {@code sliding-window}, {@code calendar}. */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        }
    }

    /** One step of a client key's normalization ({@code key-normalize}), run in this order. */
    public enum KeyStep {
        /** Unicode canonical composition: {@code é} as one character or as {@code e} and an accent is one client. */
        NFC,
        /** Leading and trailing whitespace removed. */
        TRIM,
        /** Upper and lower case are one client, by Unicode's rules. Not by default: API keys are case-sensitive. */
        CASE_FOLD
    }

    /** The default normalization of client keys: {@code nfc,trim}. */
    public static final Set<KeyStep> DEFAULT_KEY_NORMALIZATION = Set.of(KeyStep.NFC, KeyStep.TRIM);

    /** The default refill period or window of properties that give none: one second. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

    public Limit {
        if (algorithm == null
                || refillPeriod == null
                || key == null
                || keyNormalization == null
                || candidate == null
                || lease == null
                || idempotencyWindow == null) {
            throw new IllegalArgumentException("limit '" + name + "': algorithm, refillPeriod, key,"
                    + " keyNormalization, candidate, lease and idempotencyWindow are required");
        }
        keyNormalization = Set.copyOf(keyNormalization);
        List<ConfigProblem> problems = new ArrayList<>();
        if (!LimitRules.isName(name)) {
            problems.add(ConfigProblem.expected("name", name, LimitRules.NAME_RULE));
        }
        if (algorithm != Algorithm.TOKEN_BUCKET && refillTokens != capacity) {
            problems.add(ConfigProblem.of(
                    "refill-tokens", refillTokens, "a " + algorithm.configName() + " limit refills its capacity"));
        }
        problems.addAll(LimitRules.check(algorithm, capacity, refillTokens, refillPeriod, cost, persist));
        if ((algorithm == Algorithm.CALENDAR) != (calendar != null)) {
            problems.add(ConfigProblem.of("period", calendar, CALENDAR_ONLY));
        }
        problems.addAll(LimitRules.checkLease(algorithm, lease));
        idempotencyWindow.flatMap(Limit::windowProblem).ifPresent(problems::add);
        LimitRules.usageDaysProblem(usageDays).ifPresent(problems::add);
        if (!problems.isEmpty()) {
            throw TollgateConfigException.of(describe(name, problems));
        }
    }

    /** A limit that is neither a calendar quota nor leased ({@link LimitRules#NO_LEASE}). */
    public Limit(
            String name,
            Algorithm algorithm,
            long capacity,
            long refillTokens,
            Duration refillPeriod,
            long cost,
            Key key,
            Set<KeyStep> keyNormalization,
            boolean failOpen,
            boolean localFallback,
            boolean shadow,
            boolean persist,
            Optional<Limit> candidate) {
        this(
                name,
                algorithm,
                capacity,
                refillTokens,
                refillPeriod,
                cost,
                key,
                keyNormalization,
                failOpen,
                localFallback,
                shadow,
                persist,
                candidate,
                null,
                LimitRules.NO_LEASE,
                Optional.empty(),
                LimitRules.USAGE_OFF);
    }

    /** Whether a server leases this limit's tokens ({@link #lease()} not {@link LimitRules#NO_LEASE}). */
    public boolean leased() {
        return !lease.isZero();
    }

    /** A token bucket: {@code capacity} tokens, {@link Builder#refill} tokens back per period. */
    public static Builder tokenBucket(String name) {
        return new Builder(name, Algorithm.TOKEN_BUCKET);
    }

    /** A fixed window: {@code capacity} calls per {@link Builder#window}, counted per calendar window. */
    public static Builder fixedWindow(String name) {
        return new Builder(name, Algorithm.FIXED_WINDOW);
    }

    /** A sliding window: {@code capacity} calls in any {@link Builder#window}. */
    public static Builder slidingWindow(String name) {
        return new Builder(name, Algorithm.SLIDING_WINDOW);
    }

    /**
     * A calendar quota: {@code capacity} calls per {@code period} (a day, week, month or year starting at
     * local midnight of its anchor day in its zone), all back at the next period's start.
     */
    public static Builder calendar(String name, CalendarPeriod period) {
        return new Builder(name, Algorithm.CALENDAR).calendar(period);
    }

    private static final String CALENDAR_ONLY =
            "a calendar limit needs a period (day, week, month or year), and only a calendar limit has one";

    /** A limit counted by {@code algorithm}, for a translator that reads the algorithm as a setting. */
    public static Builder of(String name, Algorithm algorithm) {
        return new Builder(name, algorithm);
    }

    /** Whether spent tokens ever come back. */
    public boolean refills() {
        return refillTokens > 0;
    }

    private static Optional<ConfigProblem> windowProblem(Duration window) {
        return LimitRules.idempotencyWindowFits(window)
                ? Optional.empty()
                : Optional.of(ConfigProblem.expected(
                        "idempotency-window", LimitRules.text(window), LimitRules.IDEMPOTENCY_WINDOW_RULE));
    }

    private static List<String> describe(String name, List<ConfigProblem> problems) {
        return problems.stream().map(p -> p.describe("limit '" + name + "': ")).toList();
    }

    /**
     * The values of a {@link Limit}; {@link #build()} checks them all. A translator (properties, the
     * environment) sets what it read and asks {@link #problems()}.
     */
    public static final class Builder {
        private final String name;
        private final Algorithm algorithm;
        private Long capacity;
        private Long refillTokens;
        private Duration refillPeriod = DEFAULT_PERIOD;
        private long cost = 1;
        private Key key = Key.ip();
        private Set<KeyStep> keyNormalization = DEFAULT_KEY_NORMALIZATION;
        private boolean failOpen = true;
        private boolean localFallback;
        private boolean shadow;
        private boolean persist;
        private Builder candidate;
        private CalendarPeriod calendar;
        private boolean refillPeriodGiven;
        private Duration lease = LimitRules.NO_LEASE;
        private Duration idempotencyWindow;
        private int usageDays = LimitRules.USAGE_OFF;

        private Builder(String name, Algorithm algorithm) {
            if (algorithm == null) {
                throw new IllegalArgumentException("limit '" + name + "': algorithm must not be null");
            }
            this.name = name;
            this.algorithm = algorithm;
        }

        /** A token bucket's size, a window's calls per window. Required. */
        public Builder capacity(long newCapacity) {
            this.capacity = newCapacity;
            return this;
        }

        /** A token bucket's {@code tokens} back every {@code period}; 0 tokens: a quota (see {@link #persist}). */
        public Builder refill(long tokens, Duration period) {
            return refillTokens(tokens).refillPeriod(period);
        }

        /** A token bucket's tokens back per refill period. Required for a token bucket, refused for a window. */
        public Builder refillTokens(long tokens) {
            this.refillTokens = tokens;
            return this;
        }

        /** A token bucket's refill period, a window's length; default {@link #DEFAULT_PERIOD}. */
        public Builder refillPeriod(Duration period) {
            this.refillPeriod = period;
            this.refillPeriodGiven = true;
            return this;
        }

        /** A window's length: {@link #refillPeriod}. */
        public Builder window(Duration window) {
            return refillPeriod(window);
        }

        /** A calendar quota's period; required for {@link Algorithm#CALENDAR}, refused for the others. */
        public Builder calendar(CalendarPeriod period) {
            this.calendar = period;
            return this;
        }

        /** What one call spends unless it says otherwise; default 1. */
        public Builder cost(long newCost) {
            this.cost = newCost;
            return this;
        }

        /** Whose bucket a call spends from; default {@link Key#ip()}. */
        public Builder key(Key newKey) {
            this.key = newKey;
            return this;
        }

        /** What is done to a client key before it names a bucket; default {@link #DEFAULT_KEY_NORMALIZATION}. */
        public Builder keyNormalization(Set<KeyStep> steps) {
            this.keyNormalization = steps;
            return this;
        }

        /** Whether a call is admitted while Redis cannot be asked; default true. */
        public Builder failOpen(boolean newFailOpen) {
            this.failOpen = newFailOpen;
            return this;
        }

        /** Whether each server decides by its share, in process, while Redis cannot be asked; default false. */
        public Builder localFallback(boolean newLocalFallback) {
            this.localFallback = newLocalFallback;
            return this;
        }

        /** Whether a denial is only counted, never given; default false. */
        public Builder shadow(boolean newShadow) {
            this.shadow = newShadow;
            return this;
        }

        /** Whether a quota that never refills keeps its keys for ever; default false. */
        public Builder persist(boolean newPersist) {
            this.persist = newPersist;
            return this;
        }

        /**
         * How long a call's idempotency key ({@code Idempotency-Key}, or the key given from code) makes a
         * repeat of an admitted call admitted again without spending: from 1 s to 7 days; null (the
         * default): calls are never repeats.
         */
        public Builder idempotencyWindow(Duration newWindow) {
            this.idempotencyWindow = newWindow;
            return this;
        }

        /**
         * Keeps what each client spends per UTC day for {@code days} days (1 to 400), in the decision's own
         * script, for {@link RateLimitAdmin#usage}; {@link LimitRules#USAGE_OFF} (the default): nothing kept.
         */
        public Builder usageDays(int days) {
            this.usageDays = days;
            return this;
        }

        /**
         * A policy tried beside this one, which never denies: {@code candidate}'s algorithm, capacity,
         * refill, cost and persist, under this limit's name, key and degraded decision; null: none.
         */
        public Builder candidate(Builder newCandidate) {
            this.candidate = newCandidate;
            return this;
        }

        /**
         * How long a server holds the tokens it leases of a client's bucket ({@link
         * LimitRules#LIMIT_LEASE_RULE}, token buckets only); default {@link LimitRules#NO_LEASE}: not leased.
         */
        public Builder lease(Duration newLease) {
            this.lease = newLease;
            return this;
        }

        /** Every problem of these values, in setting order; a candidate's settings under {@code shadow.}. */
        public List<ConfigProblem> problems() {
            List<ConfigProblem> problems = new ArrayList<>();
            if (!LimitRules.isName(name)) {
                problems.add(ConfigProblem.expected("name", name, LimitRules.NAME_RULE));
            }
            if (capacity == null) {
                problems.add(ConfigProblem.missing("capacity", LimitRules.CAPACITY_FORM));
            }
            if (algorithm == Algorithm.TOKEN_BUCKET && refillTokens == null) {
                problems.add(ConfigProblem.missing("refill-tokens", LimitRules.REFILL_TOKENS_FORM));
            } else if (algorithm != Algorithm.TOKEN_BUCKET && refillTokens != null) {
                problems.add(ConfigProblem.expected(
                        "refill-tokens",
                        refillTokens,
                        "nothing: a " + algorithm.configName() + " limit admits capacity calls per refill-period;"
                                + " refill-tokens is for token-bucket"));
            }
            if (refillPeriod == null || key == null || keyNormalization == null || lease == null) {
                throw new IllegalArgumentException(
                        "limit '" + name + "': refillPeriod, key, keyNormalization and lease must not be null");
            }
            if ((algorithm == Algorithm.CALENDAR) != (calendar != null)) {
                problems.add(
                        algorithm == Algorithm.CALENDAR
                                ? ConfigProblem.missing("period", LimitRules.PERIOD_UNIT_RULE)
                                : ConfigProblem.of("period", calendar.unit().configName(), CALENDAR_ONLY));
            }
            if (algorithm == Algorithm.CALENDAR && refillPeriodGiven) {
                problems.add(ConfigProblem.of(
                        "refill-period",
                        LimitRules.text(refillPeriod),
                        "nothing: a calendar limit's period is its period (day, week, month or year)"));
            }
            boolean complete = problems.isEmpty();
            problems.addAll(LimitRules.check(
                    algorithm,
                    capacity,
                    algorithm == Algorithm.TOKEN_BUCKET ? refillTokens : capacity,
                    period(),
                    cost,
                    complete ? persist : null));
            problems.addAll(LimitRules.checkLease(algorithm, lease));
            if (idempotencyWindow != null) {
                windowProblem(idempotencyWindow).ifPresent(problems::add);
            }
            LimitRules.usageDaysProblem(usageDays).ifPresent(problems::add);
            if (candidate != null) {
                candidate.problems().stream().map(p -> p.under("shadow.")).forEach(problems::add);
            }
            return problems;
        }

        /** The limit; {@link TollgateConfigException} listing every problem ({@link #problems()}). */
        public Limit build() {
            List<ConfigProblem> problems = problems();
            if (!problems.isEmpty()) {
                throw TollgateConfigException.of(describe(name, problems));
            }
            Optional<Limit> shadowed = Optional.ofNullable(candidate)
                    .map(c -> new Limit(
                            name,
                            c.algorithm,
                            c.capacity,
                            c.algorithm == Algorithm.TOKEN_BUCKET ? c.refillTokens : c.capacity,
                            c.period(),
                            c.cost,
                            key,
                            keyNormalization,
                            true,
                            false,
                            true,
                            c.persist,
                            Optional.empty(),
                            c.calendar,
                            LimitRules.NO_LEASE,
                            Optional.empty(),
                            LimitRules.USAGE_OFF));
            return new Limit(
                    name,
                    algorithm,
                    capacity,
                    algorithm == Algorithm.TOKEN_BUCKET ? refillTokens : capacity,
                    period(),
                    cost,
                    key,
                    keyNormalization,
                    failOpen,
                    localFallback,
                    shadow,
                    persist,
                    shadowed,
                    calendar,
                    lease,
                    Optional.ofNullable(idempotencyWindow),
                    usageDays);
        }

        /** The refill period or window; a calendar quota's longest period. */
        private Duration period() {
            return algorithm == Algorithm.CALENDAR && calendar != null
                    ? calendar.unit().longest()
                    : refillPeriod;
        }
    }
}
