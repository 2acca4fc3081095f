package dev.tollgate.internal.engine;

import dev.tollgate.Counters;
import dev.tollgate.DistributedLock;
import dev.tollgate.LockAdmin;
import dev.tollgate.internal.concurrency.ConcurrencyStore;
import dev.tollgate.internal.concurrency.InProcessConcurrencyStore;
import dev.tollgate.internal.concurrency.RedisConcurrencyStore;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.counter.InProcessCounters;
import dev.tollgate.internal.counter.RedisCounters;
import dev.tollgate.internal.guard.Breaker;
import dev.tollgate.internal.guard.BreakerState;
import dev.tollgate.internal.guard.ExecutorCaller;
import dev.tollgate.internal.guard.GuardSettings;
import dev.tollgate.internal.guard.RedisGuard;
import dev.tollgate.internal.lock.InProcessDistributedLock;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.RedisDistributedLock;
import dev.tollgate.internal.ratelimit.Algorithm;
import dev.tollgate.internal.ratelimit.InProcessRateLimitStore;
import dev.tollgate.internal.ratelimit.RateLimitStore;
import dev.tollgate.internal.ratelimit.RedisRateLimitStore;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.KeyPrefix;
import dev.tollgate.internal.redis.RedisClients;
import dev.tollgate.internal.redis.RedisFailures;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisSettings;
import dev.tollgate.internal.redis.RedisUrl;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Where {@link Tollgate} keeps its state, and the guard in front of it: Redis, with every call of every
 * store behind one guard (one breaker, or one per master of a cluster), or this JVM's memory, with none.
 *
 * @param redis the client; null in process
 * @param guard what every store call goes through; {@link Guard#DIRECT} in process
 * @param breakerState the guard's state; null in process
 * @param guardCloser stops the guard's probe and workers
 * @param localStores in-process stores for limits with a local fallback; empty in process
 * @param lockAdmin what an operator does to {@code locks}
 */
record Backend(
        RedisLink redis,
        Guard guard,
        BreakerState breakerState,
        AutoCloseable guardCloser,
        Map<Algorithm, RateLimitStore> stores,
        Counters counters,
        DistributedLock locks,
        ConcurrencyStore concurrency,
        Map<Algorithm, RateLimitStore> localStores,
        LockAdmin lockAdmin)
        implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Backend.class.getName());

    /**
     * On Redis: a guard per Redis Cluster master, each with Tollgate's own breaker (Fault Tolerance keeps
     * one breaker per method); one guard with {@code breaker} for one server or a Sentinel-watched master,
     * warmed up in the background.
     */
    static Backend redis(
            TollgateSettings settings,
            RedisUrl url,
            Supplier<Breaker> breaker,
            LockLostListener lost,
            String holder,
            MicrosClock clock) {
        RedisLink redis = RedisClients.create(new RedisSettings(url, settings.budget(), settings.poolSize()));
        GuardSettings gs = settings.guard();
        if (url.kind() == RedisUrl.Kind.CLUSTER) {
            return onRedis(
                    redis,
                    RedisGuards.perMaster(
                            redis,
                            () -> ExecutorCaller.standalone(gs, RedisFailures::classify),
                            gs.probeInterval(),
                            settings.keyPrefix()),
                    lost,
                    holder,
                    clock,
                    settings.keyPrefix());
        }
        RedisGuard single = RedisGuards.forLink(
                redis,
                new ExecutorCaller(gs, breaker.get(), redis.lane(), RedisFailures::classify),
                gs.probeInterval(),
                settings.keyPrefix());
        single.warmUp();
        return onRedis(redis, single, lost, holder, clock, settings.keyPrefix());
    }

    private static <G extends Guard & BreakerState & AutoCloseable> Backend onRedis(
            RedisLink redis, G guard, LockLostListener lost, String holder, MicrosClock clock, KeyPrefix prefix) {
        Map<Algorithm, RateLimitStore> stores = new EnumMap<>(Algorithm.class);
        for (Algorithm a : Algorithm.values()) {
            stores.put(a, RedisRateLimitStore.using(a, redis));
        }
        GuardedRedis guarded = new GuardedRedis(redis, guard);
        RedisDistributedLock locks = RedisDistributedLock.using(guarded, lost, holder, prefix);
        return new Backend(
                redis,
                guard,
                guard,
                guard,
                stores,
                RedisCounters.using(guarded, prefix),
                locks,
                RedisConcurrencyStore.using(redis),
                inProcessStores(clock),
                locks);
    }

    /** In this JVM's memory, on {@code clock}. */
    static Backend inProcess(MicrosClock clock, LockLostListener lost, String holder) {
        InProcessDistributedLock locks = new InProcessDistributedLock(clock, lost, holder);
        return new Backend(
                null,
                Guard.DIRECT,
                null,
                () -> {},
                inProcessStores(clock),
                new InProcessCounters(clock),
                locks,
                new InProcessConcurrencyStore(clock),
                Map.of(),
                locks);
    }

    private static Map<Algorithm, RateLimitStore> inProcessStores(MicrosClock clock) {
        Map<Algorithm, RateLimitStore> stores = new EnumMap<>(Algorithm.class);
        for (Algorithm a : Algorithm.values()) {
            stores.put(a, InProcessRateLimitStore.of(a, clock));
        }
        return stores;
    }

    /** Stops lock keep-alives, the probe and the workers, and closes the Redis client. */
    @Override
    public void close() {
        locks.close();
        concurrency.close();
        try {
            guardCloser.close();
        } catch (Exception e) {
            LOG.log(Level.FINE, "Tollgate: closing the guard failed", e);
        }
        stores.values().forEach(RateLimitStore::close);
        localStores.values().forEach(RateLimitStore::close);
        if (redis != null) {
            redis.close();
        }
    }
}
