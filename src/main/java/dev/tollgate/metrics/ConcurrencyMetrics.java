package dev.tollgate.metrics;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Concurrency limits' MicroProfile Metrics, tagged by limit: {@code
 * tollgate_concurrency_decisions_total{outcome}} for admissions Redis decided, {@code
 * tollgate_concurrency_degraded_decisions_total{outcome, cause}} for those made without it, {@code
 * tollgate_concurrency_leases_lost_total} for calls that outlived their lease, and the gauge {@code
 * tollgate_concurrency_in_flight}: the calls this server runs under the limit now.
 */
public final class ConcurrencyMetrics implements ConcurrencyListener {

    private final MetricRegistry registry;

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> running = new ConcurrentHashMap<>();

    public ConcurrencyMetrics(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded) {
        if (degraded) {
            onDegraded(spec, admitted, DegradedCause.REFUSED); // the cause unknown: one tag set per metric
            return;
        }
        String name = "tollgate.concurrency.decisions";
        String outcome = admitted ? "allowed" : "denied";
        counters.computeIfAbsent(
                        name + "|" + spec.name() + "|" + outcome,
                        k -> registry.counter(name, new Tag("limit", spec.name()), new Tag("outcome", outcome)))
                .inc();
    }

    @Override
    public void onDegraded(ConcurrencySpec spec, boolean admitted, DegradedCause cause) {
        String name = "tollgate.concurrency.degraded.decisions";
        String outcome = admitted ? "allowed" : "denied";
        counters.computeIfAbsent(
                        name + "|" + spec.name() + "|" + outcome + "|" + cause.tag(),
                        k -> registry.counter(
                                name,
                                new Tag("limit", spec.name()),
                                new Tag("outcome", outcome),
                                new Tag("cause", cause.tag())))
                .inc();
    }

    @Override
    public void leaseLost(ConcurrencySpec spec) {
        counters.computeIfAbsent(
                        "lost|" + spec.name(),
                        k -> registry.counter("tollgate.concurrency.leases.lost", new Tag("limit", spec.name())))
                .inc();
    }

    @Override
    public void running(ConcurrencySpec spec, int delta) {
        running.computeIfAbsent(spec.name(), name -> {
                    AtomicLong n = new AtomicLong();
                    registry.gauge("tollgate.concurrency.in.flight", n, AtomicLong::get, new Tag("limit", name));
                    return n;
                })
                .addAndGet(delta);
    }
}
