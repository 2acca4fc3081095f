package dev.tollgate.engine;

import dev.tollgate.LockAdmin;
import dev.tollgate.concurrency.ConcurrencyStore;
import dev.tollgate.concurrency.InProcessConcurrencyStore;
import dev.tollgate.concurrency.RedisConcurrencyStore;
import dev.tollgate.config.TollgateSettings;
import dev.tollgate.core.Guard;
import dev.tollgate.core.MicrosClock;
import dev.tollgate.counter.Counters;
import dev.tollgate.counter.InProcessCounters;
import dev.tollgate.counter.RedisCounters;
import dev.tollgate.guard.Breaker;
import dev.tollgate.guard.BreakerState;
import dev.tollgate.guard.ExecutorCaller;
import dev.tollgate.guard.GuardSettings;
import dev.tollgate.guard.RedisGuard;
import dev.tollgate.lock.DistributedLock;
import dev.tollgate.lock.InProcessDistributedLock;
import dev.tollgate.lock.LockLostListener;
import dev.tollgate.lock.RedisDistributedLock;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.InProcessRateLimitStore;
import dev.tollgate.ratelimit.RateLimitStore;
import dev.tollgate.ratelimit.RedisRateLimitStore;
import dev.tollgate.redis.GuardedRedis;
import dev.tollgate.redis.KeyPrefix;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisFailures;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.redis.RedisUrl;
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
