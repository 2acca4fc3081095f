package dev.tollgate.testing;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Counts decisions by how they were made: {@code "redis"} or a {@link DegradedCause#tag()}. */
public final class RecordedCauses implements DecisionListener {

    private final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
        add(decision.degraded() ? "degraded-without-cause" : "redis");
    }

    @Override
    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        add(cause.tag());
    }

    private void add(String how) {
        counts.computeIfAbsent(how, k -> new AtomicLong()).incrementAndGet();
    }

    /** How many decisions were made {@code how}: {@code "redis"} or a cause's tag. */
    public long count(String how) {
        AtomicLong n = counts.get(how);
        return n == null ? 0 : n.get();
    }

    public long count(DegradedCause cause) {
        return count(cause.tag());
    }

    /** Every count, for messages. */
    @Override
    public String toString() {
        return counts.toString();
    }
}
