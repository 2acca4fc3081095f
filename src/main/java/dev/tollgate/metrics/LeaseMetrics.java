package dev.tollgate.metrics;

import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;

/**
 * Leased limits' MicroProfile Metrics, tagged by limit: {@code tollgate_leases_total} for leases this
 * server took, {@code tollgate_lease_tokens_total{outcome}} for their tokens ({@code taken}, {@code
 * returned}: given back unspent, {@code lost}: unspent and not given back because Redis could not be
 * asked, {@code abandoned}: held by a lease another server took and never ended, found by this one), and {@code tollgate_leased_decisions_total{decided}}: a leased limit's calls decided {@code
 * local} (from a lease, in memory) or by {@code redis} (a lease taken, a denial, a key's per-call decision).
 */
public class LeaseMetrics implements LeaseListener {

    private final MetricRegistry registry;

    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    LeaseMetrics(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onTaken(LimitSpec limit, long tokens) {
        counter("tollgate.leases", limit, null, null).inc();
        tokens(limit, "taken", tokens);
    }

    @Override
    public void onReturned(LimitSpec limit, long tokens) {
        tokens(limit, "returned", tokens);
    }

    @Override
    public void onLost(LimitSpec limit, long tokens) {
        tokens(limit, "lost", tokens);
    }

    @Override
    public void onAbandoned(LimitSpec limit, long tokens) {
        tokens(limit, "abandoned", tokens);
    }

    @Override
    public void onDecided(LimitSpec limit, boolean local) {
        counter("tollgate.leased.decisions", limit, "decided", local ? "local" : "redis")
                .inc();
    }

    private void tokens(LimitSpec limit, String outcome, long tokens) {
        counter("tollgate.lease.tokens", limit, "outcome", outcome).inc(tokens);
    }

    private Counter counter(String name, LimitSpec limit, String tag, String value) {
        return counters.computeIfAbsent(
                name + "|" + limit.name() + "|" + value,
                k -> tag == null
                        ? registry.counter(name, new Tag("limit", limit.name()))
                        : registry.counter(name, new Tag("limit", limit.name()), new Tag(tag, value)));
    }
}
