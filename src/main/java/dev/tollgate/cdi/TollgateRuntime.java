package dev.tollgate.cdi;

import dev.tollgate.internal.config.SettingsReader;
import dev.tollgate.internal.config.TollgateSettings;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.engine.Reporter;
import dev.tollgate.internal.engine.Reporters;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Holds the application's {@link Tollgate}: builds it from MicroProfile Config when the application
 * starts (a bad value fails the deployment), with MicroProfile Fault Tolerance's circuit breaker, the
 * reporting adapters the server has (MicroProfile Metrics, OpenTelemetry) and the {@link dev.tollgate.LockLost} event, and closes it (keep-alives
 * included) when the application stops.
 */
@ApplicationScoped
public class TollgateRuntime {

    @Inject
    FaultTolerantRedisCaller faultTolerance;

    /** The reporting adapters the server has ({@link TollgateExtension#reporters}): none, one or both. */
    @Inject
    @Any
    Instance<Reporter> reporters;

    @Inject
    LockLostEvents lockLost;

    @Inject
    TollgateExtension extension;

    /** Written once, fully built: every check reads it without a lock. */
    private volatile Engine tollgate;

    private volatile Reporter reporter;

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
            Reporter r = reporter();
            Engine built = Engine.builder(settings)
                    .reloadFrom(source, extension.checkedBeans())
                    .breaker(() -> new MicroProfileBreaker(faultTolerance))
                    .listener(r.decisions())
                    .lockLost(lost -> {
                        r.lockLost().lockLost(lost);
                        lockLost.lockLost(lost);
                    })
                    .concurrencyListener(r.concurrency())
                    .leaseListener(r.leases())
                    .build();
            built.breakerState().ifPresent(state -> r.breaker(state::isOpen));
            r.liveServers(built.servers());
            tollgate = built;
        }
        return tollgate;
    }

    /** Every reporting adapter the server has, told as one. */
    public synchronized Reporter reporter() {
        if (reporter == null) {
            reporter = Reporters.all(reporters.stream().toList());
        }
        return reporter;
    }

    @PreDestroy
    synchronized void stop() {
        if (tollgate != null) {
            tollgate.close();
        }
    }
}
