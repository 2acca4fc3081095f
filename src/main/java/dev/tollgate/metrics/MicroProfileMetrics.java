package dev.tollgate.metrics;

import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.engine.Reporter;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LeaseListener;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Tollgate's events as MicroProfile Metrics in the application registry ({@code /metrics?scope=application}).
 * A bean only where the server has MicroProfile Metrics: the CDI extension adds it when the API is
 * visible, so a server without {@code mpMetrics} deploys the application all the same.
 */
public class MicroProfileMetrics implements Reporter {

    @Inject
    MetricRegistry registry;

    private TollgateMetrics decisions;
    private ConcurrencyMetrics concurrency;
    private MicroProfileLockMetrics locks;
    private LeaseMetrics leases;

    @PostConstruct
    void register() {
        decisions = new TollgateMetrics(registry);
        concurrency = new ConcurrencyMetrics(registry);
        locks = new MicroProfileLockMetrics(registry);
        leases = new LeaseMetrics(registry);
    }

    @Override
    public DecisionListener decisions() {
        return decisions;
    }

    @Override
    public ConcurrencyListener concurrency() {
        return concurrency;
    }

    @Override
    public LockMetrics locks() {
        return locks;
    }

    @Override
    public LockLostListener lockLost() {
        return locks;
    }

    @Override
    public LeaseListener leases() {
        return leases;
    }

    @Override
    public void liveServers(ServerCount servers) {
        ServerMetrics.liveServersGauge(registry, servers);
    }

    @Override
    public void breaker(BooleanSupplier open) {
        decisions.breakerGauge(open);
    }
}
