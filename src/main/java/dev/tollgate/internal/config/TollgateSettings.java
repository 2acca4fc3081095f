package dev.tollgate.internal.config;

import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.lock.LockNames;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.Plans;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.RedisUrl;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Everything Tollgate reads from configuration, validated and typed. Built by {@link SettingsReader}
 * from {@code tollgate.*} properties, and by {@link TypedSpecs#settings} from plain Java's typed values
 * ({@code Tollgate.builder()}).
 *
 * @param redisUrl where the shared state lives; empty: in-process stores, limits and locks per server
 * @param guard the budget of one Redis call, the worker threads (one per pooled connection) and the
 *     breaker
 * @param failOpen the degraded decision for limits that do not set their own
 * @param limits the configured limits by name
 * @param http the JAX-RS filter's settings
 * @param concurrency the configured concurrency limits by name
 * @param localDenials how many denied keys each server holds until their retry-after, answering their
 *     calls without Redis ({@code tollgate.local-denials}); 0: none
 * @param plans the plans of the limits that have them, by limit name
 * @param admin the operator resource and console
 * @param reload where limits are re-read from while the application runs
 * @param lockHolder the name this server's locks are held under ({@code tollgate.lock-holder}), which an
 *     operator sees; default {@code <pid>@<host>} of this JVM
 * @param keyPrefix what every Redis key and channel starts with ({@code tollgate.redis.key-prefix});
 *     {@link KeyPrefix#NONE} by default
 * @param fallbackServers how many servers share a limit while each decides alone ({@code
 *     tollgate.local-fallback-servers}); {@link #LIVE_SERVERS}: as many as the heartbeat last counted
 */
public record TollgateSettings(
        Optional<RedisUrl> redisUrl,
        GuardSettings guard,
        boolean failOpen,
        Map<String, LimitSpec> limits,
        HttpSettings http,
        Map<String, ConcurrencySpec> concurrency,
        int localDenials,
        Map<String, Plans> plans,
        AdminSettings admin,
        ReloadSettings reload,
        String lockHolder,
        KeyPrefix keyPrefix,
        int fallbackServers) {

    /** {@code fallbackServers} when it is {@code auto}: the live count, learned. */
    public static final int LIVE_SERVERS = 0;

    public TollgateSettings {
        if (redisUrl == null
                || guard == null
                || limits == null
                || http == null
                || concurrency == null
                || plans == null) {
            throw new IllegalArgumentException("redisUrl, guard, limits, http, concurrency and plans are required");
        }
        // A HashMap finds a limit by name without the integer division of Map.copyOf's table (every check
        // looks), and its names are interned: a name written in code (an annotation's, a literal) is then
        // found by identity, its characters not compared.
        java.util.HashMap<String, LimitSpec> byName = new java.util.HashMap<>();
        Map.copyOf(limits).forEach((name, limit) -> byName.put(name.intern(), limit));
        limits = java.util.Collections.unmodifiableMap(byName);
        concurrency = Map.copyOf(concurrency);
        plans = Map.copyOf(plans);
        if (admin == null || reload == null || keyPrefix == null) {
            throw new IllegalArgumentException("admin, reload and keyPrefix are required");
        }
        LockNames.checkHolder(lockHolder);
        if (fallbackServers < 0) {
            throw new IllegalArgumentException("fallbackServers must be >= 0, but was " + fallbackServers);
        }
        if (localDenials < 0) {
            throw new IllegalArgumentException("localDenials must be >= 0, but was " + localDenials);
        }
    }

    /** The plans of the limit named {@code name}, if it has them. */
    public Optional<Plans> plans(String name) {
        return Optional.ofNullable(plans.get(name));
    }

    /** The concurrency limit named {@code name}, if configured. */
    public Optional<ConcurrencySpec> concurrencyLimit(String name) {
        return Optional.ofNullable(concurrency.get(name));
    }

    public Optional<LimitSpec> limit(String name) {
        return Optional.ofNullable(limits.get(java.util.Objects.requireNonNull(name)));
    }

    /** The most one check may wait for Redis, all waits together ({@code tollgate.redis.timeout}). */
    public Duration budget() {
        return guard.budget();
    }

    /** The most Redis connections one server opens ({@code tollgate.redis.pool-size}). */
    public int poolSize() {
        return guard.workers();
    }

    /** Whether the local fallback's share is the live count's ({@code tollgate.local-fallback-servers=auto}). */
    public boolean fallbackServersLearned() {
        return fallbackServers == LIVE_SERVERS;
    }

    /** These settings with other guard settings, e.g. a breaker that never opens. */
    public TollgateSettings withGuard(GuardSettings newGuard) {
        return with(newGuard, limits, plans, concurrency);
    }

    /** These settings with other limits and plans: what a reload changes, and all it may change. */
    public TollgateSettings withLimits(Map<String, LimitSpec> newLimits, Map<String, Plans> newPlans) {
        return with(guard, newLimits, newPlans, concurrency);
    }

    /** These settings with other concurrency limits. */
    public TollgateSettings withConcurrency(Map<String, ConcurrencySpec> newConcurrency) {
        return with(guard, limits, plans, newConcurrency);
    }

    private TollgateSettings with(
            GuardSettings newGuard,
            Map<String, LimitSpec> newLimits,
            Map<String, Plans> newPlans,
            Map<String, ConcurrencySpec> newConcurrency) {
        return new TollgateSettings(
                redisUrl,
                newGuard,
                failOpen,
                newLimits,
                http,
                newConcurrency,
                localDenials,
                newPlans,
                admin,
                reload,
                lockHolder,
                keyPrefix,
                fallbackServers);
    }
}
