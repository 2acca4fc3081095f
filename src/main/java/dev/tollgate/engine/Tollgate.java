package dev.tollgate.engine;

import dev.tollgate.ConcurrencyLimits;
import dev.tollgate.Counters;
import dev.tollgate.Decision;
import dev.tollgate.DistributedLock;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LockAdmin;
import dev.tollgate.Permit;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.engine.Engine;
import java.time.Duration;
import java.util.Map;

/**
 * Tollgate in plain Java: the limits, concurrency limits, counters and locks of one configuration, behind
 * the same budget, circuit breaker and degraded decisions as {@code @RateLimited}. Hands out API types
 * only; what it is built of is internal.
 *
 * <pre>{@code
 * try (Tollgate tollgate = Tollgate.fromProperties(Map.of(
 *         "tollgate.redis.url", "redis://localhost:6379",
 *         "tollgate.limits.orders.capacity", "20",
 *         "tollgate.limits.orders.refill-tokens", "5"))) {
 *     Decision d = tollgate.check("orders", customerId);
 *     long n = tollgate.counters().increment("signups", 1, Duration.ofDays(1));
 * }
 * }</pre>
 *
 * <p>Without {@code tollgate.redis.url} every store is kept in this JVM's memory.
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

    @Override
    public Decision check(String limit, String clientKey) {
        return engine.check(limit, clientKey);
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
