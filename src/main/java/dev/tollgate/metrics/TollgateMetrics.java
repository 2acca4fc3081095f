package dev.tollgate.metrics;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * Tollgate's MicroProfile Metrics, tagged by limit: {@code tollgate_decisions_total{outcome}} for
 * decisions Redis made, {@code tollgate_degraded_decisions_total{outcome, cause}} for those made without
 * it (so an outage does not look like a traffic spike; {@link DegradedCause} says why), {@code
 * tollgate_check_seconds} (checks that asked Redis: one decided in this JVM's memory is not timed) and the
 * gauge {@code tollgate_breaker_open}, and {@code tollgate_wait_seconds} for calls that waited for their
 * tokens.
 * A shadow limit (and a candidate, tagged {@code <name>.shadow}) counts {@code outcome="would_deny"} where
 * an enforced one counts {@code denied}: it let the call pass.
 */
public final class TollgateMetrics implements DecisionListener {

    private final MetricRegistry registry;

    private final Map<Key, Counter> counters = new ConcurrentHashMap<>();
    private final Map<Key, Timer> timers = new ConcurrentHashMap<>();

    /** A metric's name and tag values: no string is built per decision to find its counter. */
    private record Key(String metric, String limit, String first, String second) {}

    private final Map<String, Decided> decided = new ConcurrentHashMap<>();

    public TollgateMetrics(MetricRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
        if (decision.degraded()) {
            onDegraded(limit, decision, DegradedCause.REFUSED, nanos); // told without its cause: one tag set
            return;
        }
        String outcome = outcome(limit, decision);
        Decided d = decided.get(limit.name());
        if (d == null) {
            d = decided.computeIfAbsent(limit.name(), k -> new Decided());
        }
        int o = decision.allowed() ? 0 : limit.shadow() ? 2 : 1;
        Counter c = d.counters.get(o);
        if (c == null) {
            c = counters.computeIfAbsent(
                    new Key("tollgate.decisions", limit.name(), outcome, null),
                    k -> registry.counter(
                            "tollgate.decisions", new Tag("limit", limit.name()), new Tag("outcome", outcome)));
            d.counters.set(o, c);
        }
        c.inc();
        if (nanos == DecisionListener.UNTIMED) {
            return;
        }
        Timer t = d.check;
        if (t == null) {
            t = timer(limit);
            d.check = t;
        }
        t.update(Duration.ofNanos(nanos));
    }

    /**
     * A limit's decision counters (allowed, denied, would_deny) and check timer once used, found by the
     * limit's name alone: one lookup per decision. Each is registered when first used, as before; two
     * threads that race to fill a slot find the same metric in {@link #counters}.
     */
    private static final class Decided {
        final AtomicReferenceArray<Counter> counters = new AtomicReferenceArray<>(3);
        volatile Timer check;
    }

    /** {@code tollgate_degraded_decisions_total{limit, outcome, cause}}: {@code cause} is a {@link DegradedCause#tag()}. */
    @Override
    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        String outcome = outcome(limit, decision);
        counters.computeIfAbsent(
                        new Key("tollgate.degraded.decisions", limit.name(), outcome, cause.tag()),
                        k -> registry.counter(
                                "tollgate.degraded.decisions",
                                new Tag("limit", limit.name()),
                                new Tag("outcome", outcome),
                                new Tag("cause", cause.tag())))
                .inc();
        time(limit, nanos);
    }

    private static String outcome(LimitSpec limit, Decision decision) {
        return decision.allowed() ? "allowed" : limit.shadow() ? "would_deny" : "denied";
    }

    private void time(LimitSpec limit, long nanos) {
        if (nanos == DecisionListener.UNTIMED) {
            return;
        }
        timer(limit).update(Duration.ofNanos(nanos));
    }

    private Timer timer(LimitSpec limit) {
        return timers.computeIfAbsent(
                new Key("tollgate.check", limit.name(), null, null),
                k -> registry.timer("tollgate.check", new Tag("limit", k.limit())));
    }

    /**
     * Every decision as {@link #onDecision}, and {@code tollgate_plan_decisions_total{limit,plan,outcome}}
     * for a call spent under a plan (the plan's name, never the client's key).
     */
    @Override
    public void onCharged(Charged charged, long nanos) {
        decided(charged, nanos);
        String plan = charged.charge().plan();
        if (plan != null) {
            String limit = charged.charge().name();
            String outcome = charged.decision().allowed() ? "allowed" : "denied";
            counters.computeIfAbsent(
                            new Key("plan", limit, plan, outcome),
                            k -> registry.counter(
                                    "tollgate.plan.decisions",
                                    new Tag("limit", limit),
                                    new Tag("plan", plan),
                                    new Tag("outcome", outcome)))
                    .inc();
        }
    }

    /**
     * {@code tollgate_refunds_total{limit,result}}: tokens given back (a call another of its limits denied,
     * an outcome its limit does not count); {@code result="lost"} when Redis could not be asked.
     */
    @Override
    public void onRefund(LimitSpec limit, boolean given) {
        String result = given ? "given" : "lost";
        counters.computeIfAbsent(
                        new Key("refund", limit.name(), result, null),
                        k -> registry.counter(
                                "tollgate.refunds", new Tag("limit", limit.name()), new Tag("result", result)))
                .inc();
    }

    /**
     * {@code tollgate_local_fallback_decisions_total{limit,outcome}}: decisions this server's in-process
     * bucket made while Redis could not be asked (also counted in {@code tollgate_degraded_decisions_total}).
     */
    @Override
    public void onLocalDecision(LimitSpec limit, Decision decision) {
        String outcome = decision.allowed() ? "allowed" : "denied";
        counters.computeIfAbsent(
                        new Key("local", limit.name(), outcome, null),
                        k -> registry.counter(
                                "tollgate.local.fallback.decisions",
                                new Tag("limit", limit.name()),
                                new Tag("outcome", outcome)))
                .inc();
    }

    /**
     * {@code tollgate_held_denials_total{limit}}: denials answered in this server, without asking Redis,
     * because the key's retry-after had not passed (also counted in {@code tollgate_decisions_total}).
     */
    @Override
    public void onHeldDenial(LimitSpec limit) {
        counters.computeIfAbsent(
                        new Key("held", limit.name(), null, null),
                        k -> registry.counter("tollgate.held.denials", new Tag("limit", limit.name())))
                .inc();
    }

    /** {@code tollgate_wait_seconds{limit}}: how long waiting calls ({@code maxWait}) waited for their tokens. */
    @Override
    public void onWait(LimitSpec limit, Duration wait) {
        timers.computeIfAbsent(
                        new Key("wait", limit.name(), null, null),
                        k -> registry.timer("tollgate.wait", new Tag("limit", limit.name())))
                .update(wait);
    }

    /** Registers {@code tollgate_breaker_open}: 1 while checks are answered without asking Redis. */
    public void breakerGauge(BooleanSupplier open) {
        registry.gauge("tollgate.breaker.open", open, o -> o.getAsBoolean() ? 1 : 0);
    }
}
