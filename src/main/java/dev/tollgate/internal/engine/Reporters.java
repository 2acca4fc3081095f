package dev.tollgate.internal.engine;

import dev.tollgate.DegradedCause;
import dev.tollgate.internal.concurrency.ConcurrencyListener;
import dev.tollgate.internal.concurrency.ConcurrencySpec;
import dev.tollgate.internal.core.ServerCount;
import dev.tollgate.internal.lock.LockLostListener;
import dev.tollgate.internal.lock.LockMetrics;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LeaseListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.util.List;
import java.util.function.BooleanSupplier;

/** Reporters told as one: one source of events, every adapter the server has. */
public final class Reporters {

    private Reporters() {}

    /** A reporter that tells each of {@code reporters}, in order, of everything. */
    public static Reporter all(List<? extends Reporter> reporters) {
        List<Reporter> each = List.copyOf(reporters);
        if (each.size() == 1) {
            return each.get(0);
        }
        DecisionListener decisions = each.stream()
                .map(Reporter::decisions)
                .reduce(DecisionListener::both)
                .orElse(DecisionListener.NONE);
        ConcurrencyListener concurrency =
                new EachConcurrency(each.stream().map(Reporter::concurrency).toList());
        LockMetrics locks = new EachLock(each.stream().map(Reporter::locks).toList());
        List<LockLostListener> lost = each.stream().map(Reporter::lockLost).toList();
        LockLostListener lockLost = l -> lost.forEach(r -> r.lockLost(l));
        LeaseListener leases = new EachLease(each.stream().map(Reporter::leases).toList());
        return new Reporter() {
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
                return lockLost;
            }

            @Override
            public LeaseListener leases() {
                return leases;
            }

            @Override
            public void liveServers(ServerCount servers) {
                each.forEach(r -> r.liveServers(servers));
            }

            @Override
            public void breaker(BooleanSupplier open) {
                each.forEach(r -> r.breaker(open));
            }
        };
    }

    private record EachConcurrency(List<ConcurrencyListener> each) implements ConcurrencyListener {

        @Override
        public void onDecision(ConcurrencySpec spec, boolean admitted, boolean degraded) {
            each.forEach(l -> l.onDecision(spec, admitted, degraded));
        }

        @Override
        public void onDegraded(ConcurrencySpec spec, boolean admitted, DegradedCause cause) {
            each.forEach(l -> l.onDegraded(spec, admitted, cause));
        }

        @Override
        public void leaseLost(ConcurrencySpec spec) {
            each.forEach(l -> l.leaseLost(spec));
        }

        @Override
        public void running(ConcurrencySpec spec, int delta) {
            each.forEach(l -> l.running(spec, delta));
        }
    }

    private record EachLock(List<LockMetrics> each) implements LockMetrics {

        @Override
        public void acquired(String lock) {
            each.forEach(l -> l.acquired(lock));
        }

        @Override
        public void heldElsewhere(String lock) {
            each.forEach(l -> l.heldElsewhere(lock));
        }

        @Override
        public void unavailable(String lock) {
            each.forEach(l -> l.unavailable(lock));
        }
    }

    private record EachLease(List<LeaseListener> each) implements LeaseListener {

        @Override
        public void onTaken(LimitSpec limit, long tokens) {
            each.forEach(l -> l.onTaken(limit, tokens));
        }

        @Override
        public void onReturned(LimitSpec limit, long tokens) {
            each.forEach(l -> l.onReturned(limit, tokens));
        }

        @Override
        public void onLost(LimitSpec limit, long tokens) {
            each.forEach(l -> l.onLost(limit, tokens));
        }

        @Override
        public void onAbandoned(LimitSpec limit, long tokens) {
            each.forEach(l -> l.onAbandoned(limit, tokens));
        }

        @Override
        public void onDecided(LimitSpec limit, boolean local) {
            each.forEach(l -> l.onDecided(limit, local));
        }
    }
}
