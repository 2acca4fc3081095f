package dev.tollgate.internal.engine;

import dev.tollgate.ConcurrencyLimits;
import dev.tollgate.Counters;
import dev.tollgate.Decision;
import dev.tollgate.DistributedLock;
import dev.tollgate.LimitPolicy;
import dev.tollgate.LockAdmin;
import dev.tollgate.Permit;
import dev.tollgate.RateLimitAdmin;
import dev.tollgate.RateLimits;
import dev.tollgate.StoreUnavailableException;
import dev.tollgate.TollgateConfigException;
import dev.tollgate.internal.concurrency.ConcurrencyLimiter;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.core.Guard;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.core.Sleeper;
import dev.tollgate.internal.guard.BreakerState;
import dev.tollgate.internal.http.ClientAddresses;
import dev.tollgate.internal.lock.RedisDistributedLock;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Charge;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.DeniedCache;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.internal.ratelimit.RateLimiter;
import dev.tollgate.internal.ratelimit.Repeat;
import dev.tollgate.internal.ratelimit.Reservation;
import dev.tollgate.internal.ratelimit.ServerShare;
import dev.tollgate.internal.ratelimit.StoreKeys;
import dev.tollgate.internal.redis.GuardedRedis;
import dev.tollgate.internal.redis.LiveServers;
import dev.tollgate.internal.redis.RedisLink;
import dev.tollgate.internal.redis.RedisUrl;
import java.time.Duration;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.logging.Logger;

/**
 * Tollgate, assembled: typed settings in; the rate limiter, concurrency limits, counters, locks and the
 * guard around Redis out. The one composition root: the CDI runtime builds it (with MicroProfile Fault
 * Tolerance's circuit breaker), plain Java gets it behind {@link dev.tollgate.engine.Tollgate} (which
 * hands out API types only), and tests and tools build it the same way:
 * {@code Engine.build(SettingsReader.read(PropertySource.of(properties)))}.
 *
 * <p>Every Redis call, a limit's, a counter's or a lock's, goes through the same guard: one budget per
 * call, one breaker (one per master with a Redis Cluster), one background probe. Without {@code
 * tollgate.redis.url} every store is kept in this JVM's memory.
 */
public final class Engine implements RateLimits, ConcurrencyLimits, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(Engine.class.getName());

    /** Swapped whole when the limits are reloaded ({@code tollgate.config.file}); read once per check. */
    private volatile TollgateSettings settings;

    /** {@link #limit(String)}, as the limiter's memo asks it. */
    private final Function<String, LimitSpec> limitNamed = this::limit;

    private final LimitsReloader reloader;
    private final ClientAddresses clientAddresses;
    private final Backend backend;
    private final RateLimiter limiter;
    private final ConcurrencyLimiter concurrency;
    private final Sleeper sleeper;
    private final Administration administration;
    private final Activity activity;
    private final OutageLog outages;
    private final DeniedClients deniedClients;
    private final Scheduler ownHeartbeat;
    private final LiveServers liveServers;
    private final Scheduler leaseSweep;
    private final Scheduler ownActivityTicks;
    private final Scheduler.Task activityTicks;

    Engine(EngineBuilder b) {
        this.settings = b.settings;
        this.clientAddresses = new ClientAddresses(
                settings.http().trustedProxies(),
                settings.http().clientHeader(),
                settings.http().ipv6Prefix());
        Optional<RedisUrl> url = settings.redisUrl();
        if (url.isPresent()) {
            backend = Backend.redis(settings, url.get(), b.breaker, b.lockLost, settings.lockHolder(), b.clock);
            LOG.info(() -> "Tollgate: limits, locks and counters are shared through Redis at " + url.get()
                    + (settings.keyPrefix().value().isEmpty()
                            ? ""
                            : ", every key under the prefix '"
                                    + settings.keyPrefix().value() + "'")
                    + " (budget " + settings.budget().toMillis() + " ms per call, at most " + settings.poolSize()
                    + " connections; " + limitsText() + ")");
        } else {
            backend = Backend.inProcess(b.clock, b.lockLost, settings.lockHolder());
            LOG.warning(() -> "Tollgate: tollgate.redis.url is not set, so limits, locks and counters are kept in"
                    + " this server's memory and apply per server, not across servers (" + limitsText() + ")");
        }
        // Denials are held only in front of Redis: an in-process store answers as fast as the cache would.
        DeniedCache denials = url.isPresent() && settings.localDenials() > 0
                ? DeniedCache.of(settings.localDenials(), b.nanoTime)
                : null;
        // The count is needed only by a learned local share and by leases: no beats for a server with neither.
        boolean counts = url.isPresent() && (b.heartbeat != null || needsServerCount(settings));
        this.ownHeartbeat = counts && b.heartbeat == null ? Scheduler.daemon("tollgate-heartbeat", 1) : null;
        this.liveServers = counts
                ? LiveServers.start(
                        new GuardedRedis(backend.redis(), beatGuard(backend.breakerState())),
                        settings.keyPrefix(),
                        settings.lockHolder(),
                        b.heartbeat != null ? b.heartbeat : ownHeartbeat)
                : null;
        // What the console shows (the decisions of late, the outages, the most denied clients) is read by
        // the operator resource alone: while it is off (the default, and it is no reloaded setting) no
        // decision is told of for it, and no tick runs (its count cost an in-process check a tenth).
        boolean console = settings.admin().enabled();
        this.activity = new Activity(b.nanoTime);
        this.ownActivityTicks = console && b.activityTicks == null ? Scheduler.daemon("tollgate-activity", 1) : null;
        this.outages = new OutageLog(b.clock);
        this.deniedClients = new DeniedClients(b.nanoTime);
        // Its thread starts with the first lease taken: never without a leased limit.
        this.leaseSweep = Scheduler.daemon("tollgate-leases", 1);
        this.limiter = new RateLimiter(
                backend.stores(),
                settings.fallbackServersLearned()
                        ? ServerShare.of(backend.localStores(), servers())
                        : backend.localStores(),
                denials,
                backend.guard(),
                console
                        ? DecisionListener.both(new ConsoleListeners(activity, outages, deniedClients), b.listener)
                        : b.listener,
                b.nanoTime,
                StoreKeys.in(settings.keyPrefix()),
                b.serverCount != null ? b.serverCount : servers(),
                b.leaseListener,
                leaseSweep);
        this.sleeper = b.sleeper;
        this.administration =
                new Administration(this::limit, backend.stores(), backend.guard(), limiter, backend.redis());
        this.reloader = settings.reload().file().isPresent() && b.reloadFrom != null
                ? new LimitsReloader(settings, b.reloadFrom, b.reloadBeans, () -> this.settings, this::swapLimits)
                : null;
        this.concurrency =
                new ConcurrencyLimiter(backend.concurrency(), backend.guard(), b.concurrencyListener, limiter.keys());
        // The decisions read no clock for the console's counts: this moves their slot on. Last: a thread starts.
        this.activityTicks = console
                ? (b.activityTicks != null ? b.activityTicks : ownActivityTicks).every(Activity.TICK, activity::tick)
                : null;
    }

    /** Tollgate with its own circuit breaker. */
    public static Engine build(TollgateSettings settings) {
        return builder(settings).build();
    }

    /** For a breaker, a decision listener or clocks of one's own. */
    public static EngineBuilder builder(TollgateSettings settings) {
        return new EngineBuilder(settings);
    }

    @Override
    public Decision check(String limit, String clientKey) {
        // The limiter's memo answers a hot client of a named limit without looking the name up, while the
        // limits in force are these: a reload replaces the settings object.
        return limiter.check(settings, limit, clientKey, limitNamed);
    }

    @Override
    public Decision check(String limit, String clientKey, String idempotencyKey) {
        return limiter.check(limit(limit), clientKey, Repeat.of(idempotencyKey, "check", limit));
    }

    @Override
    public dev.tollgate.Estimate estimate(String limit, String clientKey, long estimate) {
        if (estimate < 1) {
            throw new IllegalArgumentException("limit '" + limit + "': an estimate must be >= 1, but was " + estimate);
        }
        Charge c = Charge.of(limit(limit), clientKey).costing(estimate);
        Admission a = limiter.admit(java.util.List.of(c), Duration.ZERO);
        return new Settlement(limiter, a.charged().get(0));
    }

    @Override
    public Decision acquire(String limit, String clientKey, Duration maxWait) throws InterruptedException {
        Reservation r = limiter.reserve(limit(limit), clientKey, maxWait);
        if (!r.delay().isZero()) {
            sleeper.sleep(r.delay());
        }
        return r.decision();
    }

    /** How a waiting call waits. */
    public Sleeper sleeper() {
        return sleeper;
    }

    @Override
    public LimitPolicy policy(String limit) {
        return limit(limit).policy();
    }

    @Override
    public Permit tryEnter(String limit, String clientKey) {
        return concurrency.tryEnter(concurrencyLimit(limit), clientKey);
    }

    /** The configured concurrency limit named {@code name}. */
    public ConcurrencySpec concurrencyLimit(String name) {
        return settings.concurrencyLimit(name)
                .orElseThrow(() -> new TollgateConfigException("no concurrency limit named '" + name
                        + "' is configured (tollgate.concurrency." + name + ".max-in-flight)"));
    }

    /** The concurrency core, for callers that hold a {@link ConcurrencySpec}. */
    public ConcurrencyLimiter concurrency() {
        return concurrency;
    }

    /** The configured limit named {@code name}. */
    public LimitSpec limit(String name) {
        // Asked on every admission, and by a check the limiter's memo does not answer: no closure (the
        // Optional does not outlive the look-up).
        LimitSpec spec = settings.limit(name).orElse(null);
        if (spec == null) {
            throw new TollgateConfigException(
                    "no limit named '" + name + "' is configured (tollgate.limits." + name + ".capacity)");
        }
        return spec;
    }

    /**
     * One call's charge under the limit named {@code name}: {@code clientKey}'s bucket, spent under the
     * policy of {@code plan} when the limit has plans and {@code plan} is one of them (the plan's
     * limit's capacity, refill and cost, under this limit's name), else the limit's own.
     */
    public Charge charge(String name, String clientKey, String plan) {
        return charge(limit(name), clientKey, plan);
    }

    /** {@link #charge(String, String, String)}, for a caller that holds the limit already ({@link #limit}). */
    public Charge charge(LimitSpec limit, String clientKey, String plan) {
        String name = limit.name();
        Charge own = Charge.of(limit, clientKey);
        return settings.plans(name)
                .flatMap(p -> p.limitOf(plan))
                .map(planLimit -> own.under(plan, renamed(limit(planLimit).policy(), name)))
                .map(c -> c.costing(c.policy().cost()))
                .orElse(own);
    }

    private static LimitPolicy renamed(LimitPolicy p, String name) {
        return new LimitPolicy(name, p.capacity(), p.refillTokens(), p.refillPeriod(), p.cost(), p.calendar());
    }

    /** The reloader of {@code tollgate.config.file}, for tests that drive it; null without one. */
    LimitsReloader reloader() {
        return reloader;
    }

    /** Puts {@code next}'s limits in force; every held denial is forgotten, since a limit may have grown. */
    private void swapLimits(TollgateSettings next) {
        settings = settings.withLimits(next.limits(), next.plans());
        limiter.forgetDenials(null);
    }

    /** The settings in force: those it was built from, with the limits last reloaded. */
    public TollgateSettings settings() {
        return settings;
    }

    /** The decision core, for callers that hold a {@link LimitSpec}. */
    public RateLimiter limiter() {
        return limiter;
    }

    /** Counters: in Redis behind the guard, or in this JVM. */
    public Counters counters() {
        return backend.counters();
    }

    /**
     * Locks: in Redis behind the guard (fail closed), or in this JVM. The first call (the lock API is in
     * use) reads Redis's {@code maxmemory-policy} and logs one WARNING when Redis may evict lock keys.
     */
    public DistributedLock locks() {
        if (backend.locks() instanceof RedisDistributedLock redisLocks) {
            redisLocks.checkEvictionPolicy();
        }
        return backend.locks();
    }

    /** What an operator does to a client's bucket: peek, reset. */
    public RateLimitAdmin admin() {
        return administration;
    }

    /** What an operator does to the locks: list the held ones, force-release one. */
    public LockAdmin lockAdmin() {
        return backend.lockAdmin();
    }

    /**
     * What this server's limits decided in the last five minutes, per limit: 30 slots of 10 s, oldest
     * first. Empty while the operator resource is off: nothing is counted for it then.
     */
    public java.util.Map<String, java.util.List<ActivitySlot>> recentActivity() {
        return activity.recent();
    }

    /**
     * The outage under way, if any, then the last ended ones, newest first (at most 10 ended): what this
     * server decided without Redis, in memory only. Empty while the operator resource is off.
     */
    public java.util.List<RecentOutage> recentOutages() {
        return outages.recent();
    }

    /**
     * The 10 clients this server denied most in the last 5 to 10 minutes, most first, by limit and the
     * hash of the client key: in memory only, at most 100 clients tracked. Empty while the operator
     * resource is off.
     */
    public java.util.List<DeniedClient> mostDeniedClients() {
        return deniedClients.most();
    }

    /** Who a client is, by the HTTP settings. */
    public ClientAddresses clientAddresses() {
        return clientAddresses;
    }

    /** The Redis link, or empty when everything is kept in process. */
    public Optional<RedisLink> redis() {
        return Optional.ofNullable(backend.redis());
    }

    /**
     * The servers sharing the limits, as this one last learned: the live-servers heartbeat's count on
     * Redis (kept through an outage), {@link ServerCount#ONE} in process.
     */
    public ServerCount servers() {
        return liveServers != null ? liveServers : ServerCount.ONE;
    }

    /** Whether the guard around Redis is answering without asking it; empty when there is no Redis. */
    public Optional<BreakerState> breakerState() {
        return Optional.ofNullable(backend.breakerState());
    }

    /**
     * The live-servers heartbeat's guard: no beat is sent while the breaker is open, and a beat's failure
     * never counts toward the breaker, which only the calls of limits, counters and locks open: exactly
     * the threshold's calls pay the budget of a hung Redis, whenever the beats fall. A beat waits at most
     * the I/O timeout (the budget) on its own thread, never a caller's.
     */
    private static Guard beatGuard(BreakerState breaker) {
        return new Guard() {
            @Override
            public <T> T call(String storeKey, Callable<T> call) {
                if (breaker != null && breaker.isOpen(storeKey)) {
                    throw StoreUnavailableException.notAttempted("the circuit breaker is open");
                }
                return Guard.DIRECT.call(storeKey, call);
            }
        };
    }

    /**
     * Whether a limit uses the live count: one with a local fallback whose share is learned ({@code
     * tollgate.local-fallback-servers=auto}), or a leased one.
     */
    private static boolean needsServerCount(TollgateSettings settings) {
        return settings.limits().values().stream()
                .anyMatch(l -> l.leased() || (l.localFallback() != null && settings.fallbackServersLearned()));
    }

    private String limitsText() {
        return settings.limits().size() + " limits: "
                + new TreeSet<>(settings.limits().keySet());
    }

    /**
     * Stops lock keep-alives, the probe and the workers, gives back the tokens leased and not spent, and
     * closes the Redis client.
     */
    @Override
    public void close() {
        if (reloader != null) {
            reloader.close();
        }
        administration.close();
        concurrency.close();
        if (liveServers != null) {
            liveServers.close();
        }
        if (ownHeartbeat != null) {
            ownHeartbeat.close();
        }
        leaseSweep.close();
        if (activityTicks != null) {
            activityTicks.cancel();
        }
        if (ownActivityTicks != null) {
            ownActivityTicks.close();
        }
        limiter.returnLeases();
        backend.close();
    }
}
