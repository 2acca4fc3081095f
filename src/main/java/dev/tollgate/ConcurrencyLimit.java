package dev.tollgate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One configured concurrency limit, typed: at most {@code maxInFlight} calls per key run at once, across
 * every server sharing the store. Built by {@link #of}, whose {@link Builder#build()} checks every value
 * against {@link LimitRules} and reports every problem together; properties ({@code
 * tollgate.concurrency.<name>.*}) are read onto the same builder.
 *
 * <pre>{@code
 * ConcurrencyLimit reports = ConcurrencyLimit.of("reports").maxInFlight(4).key(Key.principal()).build();
 * }</pre>
 *
 * @param name used in keys, metrics and logs: {@link LimitRules#NAME_RULE}
 * @param maxInFlight how many calls per key may run at once: {@link LimitRules#MAX_IN_FLIGHT_RULE}
 * @param key whose calls are counted together; default {@link Key#global()}
 * @param lease how long a slot outlives its server ({@link LimitRules#LEASE_RULE}); default {@link
 *     #DEFAULT_LEASE}
 * @param failOpen whether a call is admitted while the store cannot be asked; default true
 */
public record ConcurrencyLimit(String name, long maxInFlight, Key key, Duration lease, boolean failOpen) {

    /** A slot's lease unless set: 10 seconds. */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(10);

    public ConcurrencyLimit {
        List<ConfigProblem> problems = check(name, maxInFlight, key, lease);
        if (!problems.isEmpty()) {
            throw TollgateConfigException.of(describe(name, problems));
        }
    }

    /** A concurrency limit named {@code name}: set at least {@link Builder#maxInFlight}. */
    public static Builder of(String name) {
        return new Builder(name);
    }

    private static List<ConfigProblem> check(String name, Long maxInFlight, Key key, Duration lease) {
        if (key == null || lease == null) {
            throw new IllegalArgumentException("concurrency limit '" + name + "': key and lease must not be null");
        }
        List<ConfigProblem> problems = new ArrayList<>();
        if (!LimitRules.isName(name)) {
            problems.add(ConfigProblem.expected("name", name, LimitRules.NAME_RULE));
        }
        if (maxInFlight == null) {
            problems.add(ConfigProblem.missing("max-in-flight", LimitRules.CAPACITY_FORM));
        }
        problems.addAll(LimitRules.checkConcurrency(maxInFlight, lease));
        return problems;
    }

    private static List<String> describe(String name, List<ConfigProblem> problems) {
        return problems.stream()
                .map(p -> p.describe("concurrency limit '" + name + "': "))
                .toList();
    }

    /** The values of a {@link ConcurrencyLimit}; {@link #build()} checks them all. */
    public static final class Builder {
        private final String name;
        private Long maxInFlight;
        private Key key = Key.global();
        private Duration lease = DEFAULT_LEASE;
        private boolean failOpen = true;

        private Builder(String name) {
            this.name = name;
        }

        /** How many calls per key may run at once. Required. */
        public Builder maxInFlight(long max) {
            this.maxInFlight = max;
            return this;
        }

        /** Whose calls are counted together; default {@link Key#global()}. */
        public Builder key(Key newKey) {
            this.key = newKey;
            return this;
        }

        /** How long a slot outlives its server; default {@link #DEFAULT_LEASE}. */
        public Builder lease(Duration newLease) {
            this.lease = newLease;
            return this;
        }

        /** Whether a call is admitted while the store cannot be asked; default true. */
        public Builder failOpen(boolean newFailOpen) {
            this.failOpen = newFailOpen;
            return this;
        }

        /** Every problem of these values, in setting order. */
        public List<ConfigProblem> problems() {
            return check(name, maxInFlight, key, lease);
        }

        /** The concurrency limit; {@link TollgateConfigException} listing every problem. */
        public ConcurrencyLimit build() {
            List<ConfigProblem> problems = problems();
            if (!problems.isEmpty()) {
                throw TollgateConfigException.of(describe(name, problems));
            }
            return new ConcurrencyLimit(name, maxInFlight, key, lease, failOpen);
        }
    }
}
