package dev.tollgate.cdi;

import dev.tollgate.TollgateConfigException;
import dev.tollgate.config.SettingsReader;
import dev.tollgate.config.TollgateSettings;
import dev.tollgate.core.Guard;
import dev.tollgate.core.MicrosClock;
import dev.tollgate.engine.RedisGuards;
import dev.tollgate.guard.BreakerState;
import dev.tollgate.guard.ExecutorCaller;
import dev.tollgate.guard.GuardSettings;
import dev.tollgate.guard.RedisGuard;
import dev.tollgate.guard.ShardedGuard;
import dev.tollgate.http.ClientAddresses;
import dev.tollgate.metrics.TollgateMetrics;
import dev.tollgate.ratelimit.Algorithm;
import dev.tollgate.ratelimit.InProcessFixedWindowStore;
import dev.tollgate.ratelimit.InProcessSlidingWindowStore;
import dev.tollgate.ratelimit.InProcessTokenBucketStore;
import dev.tollgate.ratelimit.LimitSpec;
import dev.tollgate.ratelimit.RateLimitStore;
import dev.tollgate.ratelimit.RateLimiter;
import dev.tollgate.ratelimit.RedisFixedWindowStore;
import dev.tollgate.ratelimit.RedisSlidingWindowStore;
import dev.tollgate.ratelimit.RedisTokenBucketStore;
import dev.tollgate.redis.RedisClients;
import dev.tollgate.redis.RedisLink;
import dev.tollgate.redis.RedisSettings;
import dev.tollgate.redis.RedisUrl;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Tollgate inside the application: reads and validates the settings when the application starts
 * (a bad value fails the deployment), builds the store, the guard and the limiter, and closes them
 * when the application stops.
 */
@ApplicationScoped
public class TollgateRuntime {

    private static final Logger LOG = Logger.getLogger(TollgateRuntime.class.getName());

    @Inject
    FaultTolerantRedisCaller faultTolerance;

    @Inject
    TollgateMetrics metrics;

    /** Written once, after everything start() builds: reading it publishes those too. */
    private volatile TollgateSettings settings;

    private Map<Algorithm, RateLimitStore> stores;
    private RedisLink redis;
    private BreakerState guard;
    private RateLimiter limiter;
    private ClientAddresses clientAddresses;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        settings();
    }

    /** The validated settings; the first call reads them and builds everything else. */
    public TollgateSettings settings() {
        TollgateSettings s = settings;
        return s != null ? s : readOnce();
    }

    // Every check asks for the settings: no lock once they are read.
    private synchronized TollgateSettings readOnce() {
        if (settings == null) {
            TollgateSettings read = SettingsReader.read(new MicroProfilePropertySource(ConfigProvider.getConfig()));
            start(read);
            settings = read;
        }
        return settings;
    }

    /** The decision core. */
    public RateLimiter limiter() {
        settings();
        return limiter;
    }

    /** A configured limit; deployment validation has made sure every annotated name exists. */
    public LimitSpec limit(String name) {
        return settings()
                .limit(name)
                .orElseThrow(() -> new TollgateConfigException(
                        "no limit named '" + name + "' is configured (tollgate.limits." + name + ".capacity)"));
    }

    /** Who a client is, by the HTTP settings. */
    public ClientAddresses clientAddresses() {
        settings();
        return clientAddresses;
    }

    /** The Redis link, or empty when limits are kept in process. */
    public Optional<RedisLink> redis() {
        settings();
        return Optional.ofNullable(redis);
    }

    /** The guard around Redis, or empty when limits are kept in process. */
    public Optional<BreakerState> guard() {
        settings();
        return Optional.ofNullable(guard);
    }

    private void start(TollgateSettings s) {
        clientAddresses = new ClientAddresses(
                s.http().trustedProxies(), s.http().clientHeader(), s.http().ipv6Prefix());
        Guard bound = Guard.DIRECT;
        if (s.redisUrl().isPresent()) {
            RedisSettings rs = RedisSettings.of(s.redisUrl().get(), s.budget(), s.poolSize());
            redis = RedisClients.create(rs);
            stores = Map.of(
                    Algorithm.TOKEN_BUCKET, RedisTokenBucketStore.using(redis),
                    Algorithm.FIXED_WINDOW, RedisFixedWindowStore.using(redis),
                    Algorithm.SLIDING_WINDOW, RedisSlidingWindowStore.using(redis));
            GuardSettings gs = GuardSettings.defaults(s.budget(), s.poolSize());
            if (rs.url().kind() == RedisUrl.Kind.CLUSTER) {
                // Fault Tolerance keeps one breaker per method; a cluster needs one per master.
                ShardedGuard sharded =
                        RedisGuards.perMaster(redis, () -> ExecutorCaller.standalone(gs), gs.probeInterval());
                guard = sharded;
                bound = sharded;
            } else {
                RedisGuard single = RedisGuards.forLink(
                        redis, new ExecutorCaller(gs, new MicroProfileBreaker(faultTolerance)), gs.probeInterval());
                guard = single;
                bound = single;
            }
            metrics.breakerGauge(guard::isOpen);
            LOG.info(() -> "Tollgate: limits are shared through Redis at " + rs.safeUrl() + " (budget "
                    + s.budget().toMillis() + " ms per check, at most " + s.poolSize() + " connections; "
                    + s.limits().size() + " limits: "
                    + new java.util.TreeSet<>(s.limits().keySet()) + ")");
        } else {
            stores = Map.of(
                    Algorithm.TOKEN_BUCKET, new InProcessTokenBucketStore(MicrosClock.system()),
                    Algorithm.FIXED_WINDOW, new InProcessFixedWindowStore(MicrosClock.system()),
                    Algorithm.SLIDING_WINDOW, new InProcessSlidingWindowStore(MicrosClock.system()));
            LOG.warning(() -> "Tollgate: tollgate.redis.url is not set, so limits are kept in this server's memory"
                    + " and apply per server, not across servers (" + s.limits().size() + " limits: "
                    + new java.util.TreeSet<>(s.limits().keySet()) + ")");
        }
        limiter = new RateLimiter(stores, bound, metrics, System::nanoTime);
    }

    @PreDestroy
    synchronized void stop() {
        if (guard instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception e) {
                LOG.log(java.util.logging.Level.FINE, "Tollgate: closing the guard failed", e);
            }
        }
        if (stores != null) {
            stores.values().forEach(RateLimitStore::close);
        }
        if (redis != null) {
            redis.close();
        }
    }
}
