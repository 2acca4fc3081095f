package dev.tollgate.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.core.ExpiringMap;

/** Fixed windows in memory, with the same arithmetic as {@code fixed-window.lua}. */
final class FixedWindowArithmetic implements InProcessArithmetic<FixedWindowArithmetic.Window> {

    @Override
    public ExpiringMap.Updated<Window, Decision> consume(Window w, LimitPolicy policy, long now) {
        long length = Math.max(1, policy.refillPeriod().toNanos() / 1000);
        long index = Math.floorDiv(now, length);
        // A stored later window (the clock stepped back) stays current, as in the script.
        Window current = w == null || w.index < index ? new Window(index, 0, (index + 1) * length) : w;
        long endsIn = current.endsAt - now;
        if (current.spent + policy.cost() > policy.capacity()) {
            return new ExpiringMap.Updated<>(
                    current, Decision.ofMicros(false, policy.capacity() - current.spent, endsIn, endsIn));
        }
        Window spent = new Window(current.index, current.spent + policy.cost(), current.endsAt);
        return new ExpiringMap.Updated<>(spent, Decision.ofMicros(true, policy.capacity() - spent.spent, 0, endsIn));
    }

    @Override
    public long expiresAt(Window w) {
        return w.endsAt;
    }

    record Window(long index, long spent, long endsAt) {}
}
