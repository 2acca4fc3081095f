package dev.tollgate.internal.config;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.JobLock;
import dev.tollgate.Limit;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.lock.LockSpec;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.KeyNormalization;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.LimitMode;
import dev.tollgate.internal.ratelimit.LimitSpec;

/** The engine's forms of the typed values: a {@link Limit}'s {@link LimitSpec}, a {@link ConcurrencyLimit}'s and a {@link JobLock}'s spec. */
public final class TypedSpecs {

    private TypedSpecs() {}

    /**
     * {@code limit} as the engine holds it, where {@code servers} servers share its capacity while each
     * decides alone ({@code tollgate.local-fallback-servers}; {@link LimitSpec#localShare}).
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
        LimitPolicy share = LimitSpec.localShare(spec.policy(), spec.algorithm(), servers);
        return spec.withMode(limit.shadow() ? LimitMode.SHADOW : LimitMode.ENFORCE)
                .withCandidate(candidate)
                .withLocalFallback(limit.localFallback() ? share : null)
                .withLoadShare(share);
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
        return new LimitPolicy(l.name(), l.capacity(), l.refillTokens(), l.refillPeriod(), l.cost());
    }
}
