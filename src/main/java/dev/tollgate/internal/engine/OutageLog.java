package dev.tollgate.internal.engine;

import dev.tollgate.Decision;
import dev.tollgate.DegradedCause;
import dev.tollgate.internal.core.MicrosClock;
import dev.tollgate.internal.ratelimit.DecisionListener;
import dev.tollgate.internal.ratelimit.LimitSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The last {@value #KEPT} outages of this server, for the console, in memory only. One begins with a
 * decision degraded because Redis could not be asked (a timeout, a refusal, the breaker open, refused
 * credentials), counts every degraded decision while it lasts, and ends with the next decision Redis
 * answered (a held denial is answered in process, and ends nothing). Outside an outage a decision costs
 * one volatile read.
 */
final class OutageLog implements DecisionListener {

    static final int KEPT = 10;

    private final MicrosClock clock;
    private final Deque<RecentOutage> ended = new ArrayDeque<>(); // guarded by this, newest first
    private final ThreadLocal<Boolean> heldNow = new ThreadLocal<>();
    private volatile Open current;

    private record Open(long startMicros, DegradedCause cause, AtomicLong degraded) {}

    OutageLog(MicrosClock clock) {
        this.clock = clock;
    }

    /** Reads no decision's time. */
    @Override
    public boolean timesDecisions() {
        return false;
    }

    @Override
    public void onDecision(LimitSpec limit, Decision decision, long nanos) {
        if (current == null) {
            return;
        }
        if (heldNow.get() != null) {
            heldNow.remove();
        } else if (!decision.degraded()) {
            end();
        }
    }

    @Override
    public void onHeldDenial(LimitSpec limit) {
        if (current != null) {
            heldNow.set(Boolean.TRUE); // the onDecision that follows on this thread is this held denial's
        }
    }

    @Override
    public void onDegraded(LimitSpec limit, Decision decision, DegradedCause cause, long nanos) {
        Open open = current;
        if (open == null) {
            if (!isOutage(cause)) {
                return;
            }
            open = begin(cause);
        }
        open.degraded().incrementAndGet();
    }

    private static boolean isOutage(DegradedCause cause) {
        return cause.countsTowardBreaker() || cause == DegradedCause.BREAKER_OPEN || cause == DegradedCause.AUTH;
    }

    private synchronized Open begin(DegradedCause cause) {
        if (current == null) {
            current = new Open(clock.nowMicros(), cause, new AtomicLong());
        }
        return current;
    }

    private synchronized void end() {
        Open open = current;
        if (open != null) {
            current = null;
            ended.addFirst(outage(open, false));
            while (ended.size() > KEPT) {
                ended.removeLast();
            }
        }
    }

    private RecentOutage outage(Open open, boolean ongoing) {
        long micros = Math.max(0, clock.nowMicros() - open.startMicros());
        return new RecentOutage(
                Instant.EPOCH.plus(Duration.ofNanos(open.startMicros() * 1000)),
                Duration.ofNanos(micros * 1000),
                open.degraded().get(),
                open.cause().tag(),
                ongoing);
    }

    /** The outage under way, if any, then the ended ones, newest first. */
    synchronized List<RecentOutage> recent() {
        List<RecentOutage> out = new ArrayList<>(KEPT + 1);
        if (current != null) {
            out.add(outage(current, true));
        }
        out.addAll(ended);
        return out;
    }
}
