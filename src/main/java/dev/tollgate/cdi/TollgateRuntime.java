package dev.tollgate.cdi;

import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.metrics.ConcurrencyMetrics;
import dev.tollgate.metrics.LeaseMetrics;
import dev.tollgate.metrics.ServerMetrics;
import dev.tollgate.metrics.TollgateMetrics;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Holds the application's {@link Tollgate}: builds it from MicroProfile Config when the application
 * starts (a bad value fails the deployment), with MicroProfile Fault Tolerance's circuit breaker and
 * the MicroProfile Metrics listener and the {@link dev.tollgate.LockLost} event, and closes it (keep-alives
 * included) when the application stops.
 */
@ApplicationScoped
public class TollgateRuntime {

    @Inject
    FaultTolerantRedisCaller faultTolerance;

    @Inject
    TollgateMetrics metrics;

    @Inject
    LockLostEvents lockLost;

    @Inject
    ConcurrencyMetrics concurrencyMetrics;

    @Inject
    ServerMetrics serverMetrics;

    LeaseMetrics leaseMetrics;

    @Inject
    TollgateExtension extension;

    /** Written once, fully built: every check reads it without a lock. */
    private volatile Engine tollgate;

    void onStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        tollgate();
    }

    /** The application's Tollgate; the first call builds it. */
    public Engine tollgate() {
        Engine t = tollgate;
        return t != null ? t : buildOnce();
    }

    private synchronized Engine buildOnce() {
        if (tollgate == null) {
            MicroProfilePropertySource source = new MicroProfilePropertySource(ConfigProvider.getConfig());
            TollgateSettings settings = SettingsReader.read(source);
            Engine built = Engine.builder(settings)
                    .reloadFrom(source, extension.checkedBeans())
                    .breaker(() -> new MicroProfileBreaker(faultTolerance))
                    .listener(metrics)
                    .lockLost(lockLost)
                    .concurrencyListener(concurrencyMetrics)
                    .leaseListener(leaseMetrics)
                    .build();
            built.breakerState().ifPresent(state -> metrics.breakerGauge(state::isOpen));
            serverMetrics.liveServersGauge(built.servers());
            tollgate = built;
        }
        return tollgate;
    }

    @PreDestroy
    synchronized void stop() {
        if (tollgate != null) {
            tollgate.close();
        }
    }
}
