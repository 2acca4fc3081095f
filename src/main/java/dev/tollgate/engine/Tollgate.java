package dev.tollgate.engine;

import dev.tollgate.ConcurrencyLimit;
import dev.tollgate.ConcurrencyLimits;
import dev.tollgate.Counters;
import dev.tollgate.Decision;
import dev.tollgate.DistributedLock;
import dev.tollgate.Limit;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LockAdmin;
import dev.tollgate.Permit;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.config.TypedSpecs;
import dev.tollgate.internal.core.Durations;
import dev.tollgate.internal.engine.Engine;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Tollgate in plain Java: the limits, concurrency limits, counters and locks of one configuration, behind
 * the same budget, circuit breaker and degraded decisions as {@code @RateLimited}. Hands out API types
 * only; what it is built of is internal.
 *
 * <pre>{@code
 * try (Tollgate tollgate = Tollgate.builder()
 *         .redis("redis://localhost:6379")
 *         .limit(Limit.tokenBucket("orders").capacity(20).refill(5, Duration.ofSeconds(1)).build())
 *         .build()) {
 *     Decision d = tollgate.check("orders", customerId);
 *     long n = tollgate.counters().increment("signups", 1, Duration.ofDays(1));
 * }
 * }</pre>
 *
 * <p>The same from {@code tollgate.*} properties:
 *
 * <pre>{@code
 * try (Tollgate tollgate = Tollgate.fromProperties(Map.of(
 *         "tollgate.redis.url", "redis://localhost:6379",
 *         "tollgate.limits.orders.capacity", "20",
 *         "tollgate.limits.orders.refill-tokens", "5"))) {
 *     ...
 * }
 * }</pre>
 *
 * <p>Without a Redis URL every store is kept in this JVM's memory.
 */
public final class Tollgate implements RateLimits, ConcurrencyLimits, AutoCloseable {

    private final Engine engine;

    private Tollgate(Engine engine) {
        this.engine = engine;
    }

    /**
     * Tollgate configured by {@code tollgate.*} properties, the names and rules of MicroProfile Config
     * (see the configuration page); every bad setting is named in one {@link
     * dev.tollgate.TollgateConfigException}.
     */
    public static Tollgate fromProperties(Map<String, String> properties) {
        return new Tollgate(Engine.build(SettingsReader.read(PropertySource.of(properties))));
    }

    /**
     * Tollgate configured in code: typed limits and concurrency limits, and the global settings, each
     * method the property it names in its javadoc, checked by that property's rule and defaulted to its
     * default; {@link Builder#build()} reports every bad value in one {@link
     * dev.tollgate.TollgateConfigException}.
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * What {@link #builder()} configures. A {@link Limit} and a {@link ConcurrencyLimit} carry their own
     * key, degraded decision, mode and local fallback; what is set here is what the whole Tollgate shares.
     */
    public static final class Builder {
        private final Map<String, String> global = new HashMap<>();
        private final List<Limit> limits = new ArrayList<>();
        private final List<ConcurrencyLimit> concurrency = new ArrayList<>();

        private Builder() {}

        /**
         * Where the shared state lives ({@code tollgate.redis.url}): {@code redis://host:port[/db]}, {@code
         * redis-cluster://...}, {@code redis-sentinel://...}, or the TLS forms; default none: every store in
         * this JVM's memory.
         */
        public Builder redis(String url) {
            return set(SettingsReader.REDIS_URL, url);
        }

        /** The most one check may wait for Redis, all waits together ({@code tollgate.redis.timeout}). */
        public Builder timeout(Duration timeout) {
            return set(SettingsReader.REDIS_TIMEOUT, timeout);
        }

        /** The most Redis connections this JVM opens ({@code tollgate.redis.pool-size}). */
        public Builder poolSize(int size) {
            return set(SettingsReader.REDIS_POOL_SIZE, Integer.toString(size));
        }

        /**
         * The circuit breaker around Redis: open after {@code failures} failed calls in a row ({@code
         * tollgate.breaker.failures}), probe again after {@code delay} ({@code tollgate.breaker.delay}).
         */
        public Builder breaker(int failures, Duration delay) {
            set(SettingsReader.BREAKER_FAILURES, Integer.toString(failures));
            return set(SettingsReader.BREAKER_DELAY, delay);
        }

        /**
         * The degraded decision the settings record for limits that set none ({@code tollgate.fail-open});
         * in code every {@link Limit} and {@link ConcurrencyLimit} sets its own ({@link
         * Limit.Builder#failOpen}, default true), so this is the properties' default made explicit.
         */
        public Builder failOpen(boolean failOpen) {
            return set(SettingsReader.FAIL_OPEN, Boolean.toString(failOpen));
        }

        /**
         * How many servers share a locally falling-back limit's capacity ({@code tollgate.local-fallback-servers});
         * unset, {@code auto}: the live servers this one counted by their heartbeat on Redis before it went
         * away. A number given wins over the count.
         */
        public Builder localFallbackServers(int servers) {
            return set(SettingsReader.LOCAL_FALLBACK_SERVERS, Integer.toString(servers));
        }

        /** How many denied keys are held until their retry-after, without Redis ({@code tollgate.local-denials}). */
        public Builder localDenials(int keys) {
            return set(SettingsReader.LOCAL_DENIALS, Integer.toString(keys));
        }

        /** What every Redis key and channel starts with ({@code tollgate.redis.key-prefix}); default none. */
        public Builder keyPrefix(String prefix) {
            return set(SettingsReader.REDIS_KEY_PREFIX, prefix);
        }

        /** The name this JVM's locks are held under ({@code tollgate.lock-holder}); default {@code <pid>@<host>}. */
        public Builder lockHolder(String holder) {
            return set(SettingsReader.LOCK_HOLDER, holder);
        }

        /** A limit, by its name ({@code tollgate.limits.<name>.*}). */
        public Builder limit(Limit limit) {
            limits.add(required(limit, "limit"));
            return this;
        }

        /** A concurrency limit, by its name ({@code tollgate.concurrency.<name>.*}). */
        public Builder concurrencyLimit(ConcurrencyLimit limit) {
            concurrency.add(required(limit, "concurrency limit"));
            return this;
        }

        /** Tollgate, connected when a Redis URL is set; every bad value in one exception. */
        public Tollgate build() {
            return new Tollgate(Engine.build(settings()));
        }

        /** What {@link #build()} runs: the settings {@code tollgate.*} properties of the same values give. */
        TollgateSettings settings() {
            return TypedSpecs.settings(global, limits, concurrency);
        }

        private Builder set(String property, String value) {
            global.put(property, required(value, property));
            return this;
        }

        /** {@code d} as a property writes it; a negative one in ISO-8601, which the reader parses and refuses. */
        private Builder set(String property, Duration d) {
            return set(property, required(d, property).isNegative() ? d.toString() : Durations.format(d));
        }

        private static <T> T required(T value, String what) {
            if (value == null) {
                throw new IllegalArgumentException(what + " must not be null");
            }
            return value;
        }
    }

    @Override
    public Decision check(String limit, String clientKey) {
        return engine.check(limit, clientKey);
    }

    @Override
    public Decision check(String limit, String clientKey, String idempotencyKey) {
        return engine.check(limit, clientKey, idempotencyKey);
    }

    @Override
    public dev.tollgate.Estimate estimate(String limit, String clientKey, long estimate) {
        return engine.estimate(limit, clientKey, estimate);
    }

    @Override
    public Decision acquire(String limit, String clientKey, Duration maxWait) throws InterruptedException {
        return engine.acquire(limit, clientKey, maxWait);
    }

    @Override
    public LimitPolicy policy(String limit) {
        return engine.policy(limit);
    }

    @Override
    public Permit tryEnter(String limit, String clientKey) {
        return engine.tryEnter(limit, clientKey);
    }

    /** Counters: in Redis behind the guard, or in this JVM. */
    public Counters counters() {
        return engine.counters();
    }

    /** Locks: in Redis behind the guard (fail closed), or in this JVM. */
    public DistributedLock locks() {
        return engine.locks();
    }

    /** What an operator does to a client's bucket: peek, reset, credit, override, block. */
    public RateLimitAdmin admin() {
        return engine.admin();
    }

    /** What an operator does to the locks: list the held ones, force-release one. */
    public LockAdmin lockAdmin() {
        return engine.lockAdmin();
    }

    /** Stops the background work and closes the connections to Redis. */
    @Override
    public void close() {
        engine.close();
    }
}
