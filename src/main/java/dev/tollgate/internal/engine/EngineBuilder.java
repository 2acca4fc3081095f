package dev.tollgate.internal.engine;

import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.config.DeploymentCheck;
import dev.tollgate.internal.config.PropertySource;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.core.Scheduler;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.core.Sleeper;
import dev.tollgate.internal.guard.Breaker;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LeaseListener;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** What {@link Engine#build} takes beyond the settings; each has a default. */
public final class EngineBuilder {
    final TollgateSettings settings;
    Supplier<Breaker> breaker;
    DecisionListener listener = DecisionListener.NONE;
    LockLostListener lockLost = LockLostListener.NONE;
    ConcurrencyListener concurrencyListener = ConcurrencyListener.NONE;
    MicrosClock clock = MicrosClock.system();
    LongSupplier nanoTime = System::nanoTime;
    Sleeper sleeper = Sleeper.SYSTEM;
    Scheduler heartbeat;
    Scheduler activityTicks;
    PropertySource reloadFrom;
    DeploymentCheck.Beans reloadBeans;
    ServerCount serverCount;
    LeaseListener leaseListener = LeaseListener.NONE;

    EngineBuilder(TollgateSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException("settings must not be null");
        }
        this.settings = settings;
        this.breaker = () -> Breaker.of(settings.guard());
    }

    /**
     * The circuit breaker around one Redis server (or a Sentinel-watched master); default Tollgate's
     * own, with the settings' threshold and delay. A Redis Cluster gets Tollgate's own per master.
     */
    public EngineBuilder breaker(Supplier<Breaker> newBreaker) {
        this.breaker = newBreaker;
        return this;
    }

    /** Told of every decision, for metrics; default none. */
    public EngineBuilder listener(DecisionListener newListener) {
        this.listener = newListener;
        return this;
    }

    /** Told of every held lock found lost (for metrics and events); default none. */
    public EngineBuilder lockLost(LockLostListener newListener) {
        this.lockLost = newListener;
        return this;
    }

    /** Told of every concurrency decision and lease lost, for metrics; default none. */
    public EngineBuilder concurrencyListener(ConcurrencyListener newListener) {
        this.concurrencyListener = newListener;
        return this;
    }

    /** The in-process stores' clock (Redis's stores use Redis {@code TIME}); default the system clock. */
    public EngineBuilder clock(MicrosClock newClock) {
        this.clock = newClock;
        return this;
    }

    /** A monotonic clock to time checks with; default {@link System#nanoTime}. */
    public EngineBuilder nanoTime(LongSupplier newNanoTime) {
        this.nanoTime = newNanoTime;
        return this;
    }

    /** How a waiting call ({@code maxWait}) waits; default {@link Sleeper#SYSTEM}. */
    public EngineBuilder sleeper(Sleeper newSleeper) {
        this.sleeper = newSleeper;
        return this;
    }

    /**
     * What runs the live-servers heartbeat ({@code LiveServers}), which stays the caller's to close;
     * default a daemon thread of the engine's own.
     */
    public EngineBuilder heartbeat(Scheduler newScheduler) {
        this.heartbeat = newScheduler;
        return this;
    }

    /**
     * What moves the console's activity counts on to the slot under way, every second ({@code Activity}),
     * which stays the caller's to close; default a daemon thread of the engine's own.
     */
    public EngineBuilder activityTicks(Scheduler newScheduler) {
        this.activityTicks = newScheduler;
        return this;
    }

    /**
     * Where the settings came from, to read them again when {@code tollgate.config.file} changes;
     * default none (the limits change only with a new Tollgate). A reload is checked as plain Java's
     * settings are ({@link DeploymentCheck.Beans#plainJava()}).
     */
    public EngineBuilder reloadFrom(PropertySource source) {
        return reloadFrom(source, DeploymentCheck.Beans.plainJava());
    }

    /**
     * As {@link #reloadFrom(PropertySource)}, each reload checked by the
     * deployment's check against {@code beans}, the beans the deployment was checked against.
     */
    public EngineBuilder reloadFrom(PropertySource source, DeploymentCheck.Beans beans) {
        this.reloadFrom = source;
        this.reloadBeans = beans;
        return this;
    }

    /**
     * How many servers share the limits now (leases take a share of them); default the engine's own count
     * ({@link Engine#servers()}: the live-servers heartbeat on Redis, one in process). Tests fix it.
     */
    public EngineBuilder serverCount(ServerCount newServerCount) {
        this.serverCount = newServerCount;
        return this;
    }

    /** Told of leased limits' leases taken, given back and lost, for metrics; default none. */
    public EngineBuilder leaseListener(LeaseListener newListener) {
        this.leaseListener = newListener;
        return this;
    }

    public Engine build() {
        return new Engine(this);
    }
}
