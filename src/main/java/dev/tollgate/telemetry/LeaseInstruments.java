package dev.tollgate.telemetry;

import static dev.tollgate.telemetry.Names.LIMIT;
import static dev.tollgate.telemetry.Names.RESULT;

import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;

/**
 * Leased limits as OpenTelemetry counters, by limit: leases taken, their tokens by result ({@code taken},
 * {@code returned}, {@code lost}, {@code abandoned}: another server's, never ended), and calls decided {@code local} (from a lease) or by {@code redis}.
 */
final class LeaseInstruments implements LeaseListener {

    private final LongCounter leases;
    private final LongCounter tokens;
    private final LongCounter decisions;

    LeaseInstruments(Meter meter) {
        leases = DecisionInstruments.counter(meter, Names.LEASES, "{lease}", "Leases this server took");
        tokens = DecisionInstruments.counter(
                meter,
                Names.LEASE_TOKENS,
                "{token}",
                "Leased tokens: taken, given back unspent, lost, or abandoned by another server");
        decisions = DecisionInstruments.counter(
                meter, Names.LEASED_DECISIONS, "{decision}", "A leased limit's calls by where they were decided");
    }

    @Override
    public void onTaken(LimitSpec limit, long n) {
        leases.add(1, Attributes.of(LIMIT, limit.name()));
        tokens(limit, "taken", n);
    }

    @Override
    public void onReturned(LimitSpec limit, long n) {
        tokens(limit, "returned", n);
    }

    @Override
    public void onLost(LimitSpec limit, long n) {
        tokens(limit, "lost", n);
    }

    @Override
    public void onAbandoned(LimitSpec limit, long n) {
        tokens(limit, "abandoned", n);
    }

    @Override
    public void onDecided(LimitSpec limit, boolean local) {
        decisions.add(1, Attributes.of(LIMIT, limit.name(), Names.DECIDED, local ? "local" : "redis"));
    }

    private void tokens(LimitSpec limit, String result, long n) {
        tokens.add(n, Attributes.of(LIMIT, limit.name(), RESULT, result));
    }
}
