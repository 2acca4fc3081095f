package dev.tollgate.internal.ratelimit;

import dev.tollgate.ConfigProblem;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LimitRules;
import java.time.Duration;
import java.util.List;

/**
 * A configured limit: its policy, how it counts, whose bucket a call spends from, and what to decide
 * when the store cannot be asked. A window limit's policy refills its whole capacity once per window.
 *
 * <p>Checked when built by {@link LimitRules}, beyond what {@link LimitPolicy} checks: a token bucket
 * refills from empty within {@link #MAX_REFILL_FROM_EMPTY} (its keys live that long at most), and the
 * capacity and cost fit the algorithm ({@link Algorithm#largestCapacity()}, {@link Algorithm#largestCost()}).
 *
 * @param mode whether the limit denies ({@link LimitMode#ENFORCE}) or only counts what it would deny
 * @param candidate a shadow policy tried beside this one on the same calls and client keys, on keys of
 *     its own ({@code tollgate.limits.<name>.shadow.*}); null when there is none
 * @param localFallback the policy of this server's in-process bucket that decides while the store
 *     cannot be asked ({@code local-fallback=true}); null: the degraded decision ({@code fail-open})
 * @param keyNormalization what is done to a client key before it names a bucket ({@code key-normalize})
 * @param loadShare the policy of this server's in-process bucket that decides a call of a fail-open
 *     limit when this server's own load kept it from Redis's answer ({@link
 *     dev.tollgate.DegradedCause#isLoad()}), even without a local fallback: its local share ({@link
 *     #localShare}); null: the local fallback's policy, else the share of one server
 * @param lease how long this server holds the tokens it leases of a client's bucket ({@link Leases});
 *     {@link LimitRules#NO_LEASE}: every call asks the store
 * @param idempotencyWindow how long a record of an admitted call's idempotency key lives, its repeats
 *     admitted again without spending ({@code idempotency-window}); null: no call is a repeat
 * @param usageDays how many days what each client spends per UTC day is kept ({@code usage-days},
 *     {@link UsageLedger}); {@link LimitRules#USAGE_OFF}: none is
 */
public record LimitSpec(
        LimitPolicy policy,
        Algorithm algorithm,
        KeySpec key,
        boolean failOpen,
        LimitMode mode,
        LimitSpec candidate,
        LimitPolicy localFallback,
        KeyNormalization keyNormalization,
        LimitPolicy loadShare,
        Duration lease,
        Duration idempotencyWindow,
        int usageDays) {

    /** The longest a token bucket may take to refill from empty, and so the longest its key lives: 100 years. */
    public static final Duration MAX_REFILL_FROM_EMPTY = LimitRules.MAX_PERIOD;

    public LimitSpec {
        if (policy == null || algorithm == null || key == null || mode == null || keyNormalization == null) {
            throw new IllegalArgumentException("policy, algorithm, key, mode and keyNormalization are required");
        }
        if (lease == null) {
            lease = LimitRules.NO_LEASE;
        }
        if (!LimitRules.checkLease(algorithm.api(), lease).isEmpty()) {
            throw invalid(policy, algorithm, LimitRules.checkLease(algorithm.api(), lease));
        }
        if (candidate != null && (candidate.mode != LimitMode.CANDIDATE || candidate.candidate != null)) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': a candidate is a shadow of its own");
        }
        List<ConfigProblem> problems = LimitRules.check(
                algorithm.api(), policy.capacity(), policy.refillTokens(), policy.refillPeriod(), policy.cost(), null);
        if (!problems.isEmpty()) {
            throw invalid(policy, algorithm, problems);
        }
        if ((algorithm == Algorithm.CALENDAR) != (policy.calendar() != null)) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': a calendar limit's policy has a"
                    + " calendar period, and only a calendar limit's");
        }
        if (loadShare == null) {
            loadShare = localFallback != null ? localFallback : localShare(policy, algorithm, 1);
        }
        if (idempotencyWindow != null && !LimitRules.idempotencyWindowFits(idempotencyWindow)) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': idempotency-window must be "
                    + LimitRules.IDEMPOTENCY_WINDOW_RULE + ", but was " + idempotencyWindow);
        }
        if (LimitRules.usageDaysProblem(usageDays).isPresent()) {
            throw new IllegalArgumentException("limit '" + policy.name() + "': usage-days must be "
                    + LimitRules.USAGE_DAYS_RULE + ", but was " + usageDays);
        }
    }

    /** Keeping no usage. */
    public LimitSpec(
            LimitPolicy policy,
            Algorithm algorithm,
            KeySpec key,
            boolean failOpen,
            LimitMode mode,
            LimitSpec candidate,
            LimitPolicy localFallback,
            KeyNormalization keyNormalization,
            LimitPolicy loadShare,
            Duration lease,
            Duration idempotencyWindow) {
        this(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                lease,
                idempotencyWindow,
                LimitRules.USAGE_OFF);
    }

    /** Whether this limit keeps what each client spends per day ({@code usage-days}). */
    public boolean keepsUsage() {
        return usageDays != LimitRules.USAGE_OFF && mode != LimitMode.CANDIDATE;
    }

    /** Neither leased nor keeping idempotency records. */
    public LimitSpec(
            LimitPolicy policy,
            Algorithm algorithm,
            KeySpec key,
            boolean failOpen,
            LimitMode mode,
            LimitSpec candidate,
            LimitPolicy localFallback,
            KeyNormalization keyNormalization,
            LimitPolicy loadShare) {
        this(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                LimitRules.NO_LEASE,
                null);
    }

    /**
     * One server's share of a limit of {@code policy} while it decides alone, when {@code servers}
     * servers share it ({@code tollgate.local-fallback-servers}): the capacity divided by {@code servers}
     * (rounded up, at least one call's cost), refilled as slowly ({@code refill-period × servers}; a
     * window's capacity per window), so {@code servers} servers together admit about what the limit does.
     */
    public static LimitPolicy localShare(LimitPolicy p, Algorithm algorithm, int servers) {
        long capacity = Math.max(p.cost(), (p.capacity() + servers - 1) / servers);
        if (algorithm != Algorithm.TOKEN_BUCKET) {
            return new LimitPolicy(p.name(), capacity, capacity, p.refillPeriod(), p.cost(), p.calendar());
        }
        Duration period = p.refillPeriod().multipliedBy(servers);
        if (period.compareTo(LimitPolicy.MAX_PERIOD) > 0) {
            period = LimitPolicy.MAX_PERIOD;
        }
        return new LimitPolicy(p.name(), capacity, p.refillTokens(), period, p.cost());
    }

    /**
     * With the default {@link KeyNormalization} and no load share of its own (the local fallback's policy,
     * else the share of one server).
     */
    public LimitSpec(
            LimitPolicy policy,
            Algorithm algorithm,
            KeySpec key,
            boolean failOpen,
            LimitMode mode,
            LimitSpec candidate,
            LimitPolicy localFallback) {
        this(policy, algorithm, key, failOpen, mode, candidate, localFallback, KeyNormalization.DEFAULT, null);
    }

    /**
     * Whether {@code policy}'s capacity fits {@code algorithm} ({@link Algorithm#largestCapacity()}): for
     * a limit, and for the policy a plan makes a call spend under; {@link IllegalArgumentException} if not.
     */
    static void fits(LimitPolicy policy, Algorithm algorithm) {
        List<ConfigProblem> problems = LimitRules.check(algorithm.api(), policy.capacity(), null, null, null, null);
        if (!problems.isEmpty()) {
            throw invalid(policy, algorithm, problems);
        }
    }

    private static IllegalArgumentException invalid(
            LimitPolicy policy, Algorithm algorithm, List<ConfigProblem> problems) {
        return new IllegalArgumentException("limit '" + policy.name() + "' is a " + algorithm.configName() + " limit: "
                + String.join("; ", problems.stream().map(p -> p.describe("")).toList()));
    }

    /** An enforced limit without a candidate or a local fallback. */
    public LimitSpec(LimitPolicy policy, Algorithm algorithm, KeySpec key, boolean failOpen) {
        this(policy, algorithm, key, failOpen, LimitMode.ENFORCE, null, null);
    }

    /** A token bucket. */
    public LimitSpec(LimitPolicy policy, KeySpec key, boolean failOpen) {
        this(policy, Algorithm.TOKEN_BUCKET, key, failOpen);
    }

    /**
     * The limit's name in store keys, metrics and logs: the policy's, and for a candidate the policy's
     * followed by {@code .shadow} (a name no configured limit can have), so its buckets are its own.
     */
    public String name() {
        return mode == LimitMode.CANDIDATE ? policy.name() + ".shadow" : policy.name();
    }

    /** Whether a denial is only counted, never given: a shadow limit, or a candidate. */
    public boolean shadow() {
        return mode != LimitMode.ENFORCE;
    }

    /** This limit in {@code newMode}. */
    public LimitSpec withMode(LimitMode newMode) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                newMode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                lease,
                idempotencyWindow,
                usageDays);
    }

    /** This limit with a candidate tried beside it (a spec in {@link LimitMode#CANDIDATE}), or none (null). */
    public LimitSpec withCandidate(LimitSpec newCandidate) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                newCandidate,
                localFallback,
                keyNormalization,
                loadShare,
                lease,
                idempotencyWindow,
                usageDays);
    }

    /** This limit deciding in process by {@code fallback} while the store cannot be asked; null: never. */
    public LimitSpec withLocalFallback(LimitPolicy fallback) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                fallback,
                keyNormalization,
                loadShare,
                lease,
                idempotencyWindow,
                usageDays);
    }

    /** This limit normalising client keys by {@code normalization}. */
    public LimitSpec withKeyNormalization(KeyNormalization normalization) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                normalization,
                loadShare,
                lease,
                idempotencyWindow,
                usageDays);
    }

    /** This limit deciding in process by {@code share} when this server's load keeps a call from Redis. */
    public LimitSpec withLoadShare(LimitPolicy share) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                share,
                lease,
                idempotencyWindow,
                usageDays);
    }

    /** This limit leased for {@code newLease} ({@link Leases}); {@link LimitRules#NO_LEASE}: not leased. */
    public LimitSpec withLease(Duration newLease) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                newLease,
                idempotencyWindow,
                usageDays);
    }

    /** Whether this server leases the limit's tokens: an enforced or shadow limit with a lease, never a candidate. */
    public boolean leased() {
        return !lease.isZero() && mode != LimitMode.CANDIDATE;
    }

    /** This limit keeping records of admitted calls' idempotency keys for {@code window}; null: never. */
    public LimitSpec withIdempotencyWindow(Duration window) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                lease,
                window,
                usageDays);
    }

    /** This limit keeping each client's daily usage for {@code days} days; {@link LimitRules#USAGE_OFF}: not. */
    public LimitSpec withUsageDays(int days) {
        return new LimitSpec(
                policy,
                algorithm,
                key,
                failOpen,
                mode,
                candidate,
                localFallback,
                keyNormalization,
                loadShare,
                lease,
                idempotencyWindow,
                days);
    }
}
