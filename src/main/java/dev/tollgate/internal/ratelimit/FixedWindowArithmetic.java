package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;

/** Fixed windows in memory, with the same arithmetic as {@code fixed-window.lua}. */
final class FixedWindowArithmetic implements InProcessArithmetic<FixedWindowArithmetic.Window> {

    @Override
    public ExpiringMap.Updated<Window, Decision> consume(Window w, LimitPolicy policy, long now) {
        long length = policy.refillPeriodMicros();
        // As in the script: a stored window stays current until it ends, unless it ends more than one
        // window from now (a shortened window, a clock that stepped back that far).
        Window current = w == null || w.endsAt <= now || w.endsAt - now > length
                ? new Window(0, (Math.floorDiv(now, length) + 1) * length)
                : w;
        long endsIn = current.endsAt - now;
        if (current.spent + policy.cost() > policy.capacity()) {
            return new ExpiringMap.Updated<>(
                    current, Decision.ofMicros(false, policy.capacity() - current.spent, endsIn, endsIn));
        }
        Window spent = new Window(current.spent + policy.cost(), current.endsAt);
        return new ExpiringMap.Updated<>(spent, Decision.ofMicros(true, policy.capacity() - spent.spent, 0, endsIn));
    }

    /** The mark is the window's end. */
    @Override
    public ExpiringMap.Updated<Window, Spent> spend(Window w, LimitPolicy policy, long now) {
        ExpiringMap.Updated<Window, Decision> u = consume(w, policy, now);
        return new ExpiringMap.Updated<>(u.state(), new Spent(u.answer(), u.state().endsAt));
    }

    /** As {@code fixed-window-refund.lua}: only the call's own window gets it back. */
    @Override
    public Window refund(Window w, LimitPolicy policy, long mark) {
        if (w == null || w.endsAt != mark) {
            return w;
        }
        return new Window(Math.max(0, w.spent - policy.cost()), w.endsAt);
    }

    /** As {@code fixed-window-settle.lua}: only while it is the call's own window, never below 0. */
    @Override
    public ExpiringMap.Updated<Window, Boolean> settle(Window w, LimitPolicy policy, long now, long mark, long delta) {
        if (w == null || w.endsAt() != mark) {
            return new ExpiringMap.Updated<>(w, false);
        }
        long spent = Math.max(0, Math.min(LimitPolicy.MAX_COUNT, w.spent() + delta));
        return new ExpiringMap.Updated<>(new Window(spent, w.endsAt()), true);
    }

    @Override
    public long expiresAt(Window w) {
        return w.endsAt;
    }

    record Window(long spent, long endsAt) {}
}
