package dev.tollgate.internal.config;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.JobLock;
import dev.tollgate.Limit;
import dev.tollgate.LimitPolicy;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.lock.LockSpec;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The engine's forms of the typed values: a {@link Limit}'s {@link LimitSpec}, a {@link ConcurrencyLimit}'s and a {@link JobLock}'s spec. */
public final class TypedSpecs {

    private TypedSpecs() {}

    /**
     * The settings of plain Java's typed values: {@code global}, {@code tollgate.*} properties read by
     * {@link SettingsReader} (so by its rules and defaults, with its messages), and the {@code limits} and
     * {@code concurrency} limits, each already valid, in the engine's forms. Every problem, the global
     * settings' and a name given twice, in one {@link TollgateConfigException}.
     */
    public static TollgateSettings settings(
            Map<String, String> global, List<Limit> limits, List<ConcurrencyLimit> concurrency) {
        SettingsReader.Reading read = SettingsReader.check(PropertySource.of(global));
        List<String> problems = new ArrayList<>(read.problems());
        // Its value is the reader's to judge; a bad one is reported, and the names are checked with the default.
        int servers = read.settings().map(TollgateSettings::fallbackServers).orElse(TollgateSettings.LIVE_SERVERS);
        Map<String, LimitSpec> limitSpecs = new TreeMap<>();
        for (Limit l : limits) {
            if (limitSpecs.put(l.name(), limit(l, servers)) != null) {
                problems.add("limit '" + l.name() + "' is given twice");
            }
        }
        Map<String, ConcurrencySpec> concurrencySpecs = new TreeMap<>();
        for (ConcurrencyLimit c : concurrency) {
            if (concurrencySpecs.put(c.name(), concurrency(c)) != null) {
                problems.add("concurrency limit '" + c.name() + "' is given twice");
            }
        }
        if (!problems.isEmpty()) {
            throw TollgateConfigException.of(problems);
        }
        return read.settings()
                .orElseThrow()
                .withLimits(PacingLimit.withBuiltIn(limitSpecs), Map.of())
                .withConcurrency(concurrencySpecs);
    }

    /**
     * {@code limit} as the engine holds it, where {@code servers} servers share its capacity while each
     * decides alone ({@code tollgate.local-fallback-servers}; {@link LimitSpec#localShare}). With {@link
     * TollgateSettings#LIVE_SERVERS} its local share is the whole limit, which the engine divides by the
     * live count when it decides ({@code ServerShare}).
     */
    public static LimitSpec limit(Limit limit, int servers) {
        KeySpec key = KeySpec.of(limit.key());
        KeyNormalization normalization = KeyNormalization.of(limit.keyNormalization());
        LimitSpec candidate = limit.candidate()
                .map(c -> new LimitSpec(
                        policy(c),
                        Algorithm.of(c.algorithm()),
                        key,
                        true,
                        LimitMode.CANDIDATE,
                        null,
                        null,
                        normalization,
                        null))
                .orElse(null);
        LimitSpec spec = new LimitSpec(policy(limit), Algorithm.of(limit.algorithm()), key, limit.failOpen())
                .withKeyNormalization(normalization);
        LimitPolicy share = LimitSpec.localShare(spec.policy(), spec.algorithm(), Math.max(1, servers));
        return spec.withMode(limit.shadow() ? LimitMode.SHADOW : LimitMode.ENFORCE)
                .withCandidate(candidate)
                .withLocalFallback(limit.localFallback() ? share : null)
                .withLoadShare(share)
                .withLease(limit.lease())
                .withIdempotencyWindow(limit.idempotencyWindow().orElse(null))
                .withUsageDays(limit.usageDays());
    }

    /** {@code limit} as the engine holds it. */
    public static ConcurrencySpec concurrency(ConcurrencyLimit limit) {
        return new ConcurrencySpec(
                limit.name(), limit.maxInFlight(), KeySpec.of(limit.key()), limit.lease(), limit.failOpen());
    }

    /** {@code lock} as the engine holds it. */
    public static LockSpec lock(JobLock lock) {
        return new LockSpec(lock.name(), lock.ttl(), lock.atLeast(), lock.keepAlive());
    }

    private static LimitPolicy policy(Limit l) {
        return new LimitPolicy(l.name(), l.capacity(), l.refillTokens(), l.refillPeriod(), l.cost(), l.calendar());
    }
}
