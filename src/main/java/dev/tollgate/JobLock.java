package dev.tollgate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How one {@link OncePerCluster} job is locked, typed: held at most {@code ttl} (or between two extends
 * with {@code keepAlive}), at least {@code atLeast}. Built by {@link #of}, whose {@link Builder#build()}
 * checks every value against {@link LimitRules} and reports every problem together; the annotation and
 * its overrides ({@code tollgate.locks.<name>.*}) are read onto the same builder.
 *
 * <pre>{@code
 * JobLock export = JobLock.of("nightly-export").ttl(Duration.ofHours(1)).atLeast(Duration.ofMinutes(5)).build();
 * }</pre>
 *
 * @param name {@link LimitRules#LOCK_NAME_RULE}
 * @param ttl how long the lock is held at most, or with {@code keepAlive} between two extends; &gt; 0
 * @param atLeast how long the lock is held at least, even when the job ends sooner; 0..ttl, default 0
 * @param keepAlive whether the lock is extended every ttl/3 while the job runs; default false
 */
public record JobLock(String name, Duration ttl, Duration atLeast, boolean keepAlive) {

    public JobLock {
        List<ConfigProblem> problems = check(name, ttl, atLeast);
        if (!problems.isEmpty()) {
            throw TollgateConfigException.of(describe(name, problems));
        }
    }

    /** The lock named {@code name}: set at least {@link Builder#ttl}. */
    public static Builder of(String name) {
        return new Builder(name);
    }

    private static List<ConfigProblem> check(String name, Duration ttl, Duration atLeast) {
        List<ConfigProblem> problems = new ArrayList<>();
        if (name == null || !LimitRules.LOCK_NAME.matcher(name).matches()) {
            problems.add(ConfigProblem.expected("name", name, LimitRules.LOCK_NAME_RULE));
        }
        if (ttl == null) {
            problems.add(ConfigProblem.missing("ttl", "a duration > 0 such as 30s"));
        }
        if (atLeast == null) {
            throw new IllegalArgumentException("lock '" + name + "': atLeast must not be null");
        }
        problems.addAll(LimitRules.checkLock(ttl, atLeast));
        return problems;
    }

    private static List<String> describe(String name, List<ConfigProblem> problems) {
        return problems.stream().map(p -> p.describe("lock '" + name + "': ")).toList();
    }

    /** The values of a {@link JobLock}; {@link #build()} checks them all. */
    public static final class Builder {
        private final String name;
        private Duration ttl;
        private Duration atLeast = Duration.ZERO;
        private boolean keepAlive;

        private Builder(String name) {
            this.name = name;
        }

        /** How long the lock is held at most, or between two extends with keep-alive. Required. */
        public Builder ttl(Duration newTtl) {
            this.ttl = newTtl;
            return this;
        }

        /** How long the lock is held at least, even when the job ends sooner; default 0. */
        public Builder atLeast(Duration newAtLeast) {
            this.atLeast = newAtLeast;
            return this;
        }

        /** Whether the lock is extended every ttl/3 while the job runs; default false. */
        public Builder keepAlive(boolean newKeepAlive) {
            this.keepAlive = newKeepAlive;
            return this;
        }

        /** Every problem of these values, in setting order. */
        public List<ConfigProblem> problems() {
            return check(name, ttl, atLeast);
        }

        /** The lock; {@link TollgateConfigException} listing every problem. */
        public JobLock build() {
            List<ConfigProblem> problems = problems();
            if (!problems.isEmpty()) {
                throw TollgateConfigException.of(describe(name, problems));
            }
            return new JobLock(name, ttl, atLeast, keepAlive);
        }
    }
}
