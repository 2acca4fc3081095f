package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import dev.tollgate.LimitPolicy;
import dev.tollgate.internal.core.ExpiringMap;
import dev.tollgate.internal.ratelimit.FixedWindowArithmetic.Window;

/** Calendar quotas in memory, with the same arithmetic as {@code calendar.lua}, on the store's clock. */
final class CalendarArithmetic implements InProcessArithmetic<Window> {

    private final CalendarStarts starts = new CalendarStarts();

    @Override
    public ExpiringMap.Updated<Window, Decision> consume(Window w, LimitPolicy policy, long now) {
        long ends = starts.around(policy.calendar(), now)[CalendarStarts.BEFORE + 1];
        // As in the script: what was spent counts only in its own period.
        Window current = w == null || w.endsAt() != ends ? new Window(0, ends) : w;
        long endsIn = ends - now;
        if (current.spent() + policy.cost() > policy.capacity()) {
            return new ExpiringMap.Updated<>(
                    current,
                    Decision.ofMicros(false, Math.max(0, policy.capacity() - current.spent()), endsIn, endsIn));
        }
        Window spent = new Window(current.spent() + policy.cost(), ends);
        return new ExpiringMap.Updated<>(spent, Decision.ofMicros(true, policy.capacity() - spent.spent(), 0, endsIn));
    }

    /** The mark is the period's end. */
    @Override
    public ExpiringMap.Updated<Window, Spent> spend(Window w, LimitPolicy policy, long now) {
        ExpiringMap.Updated<Window, Decision> u = consume(w, policy, now);
        return new ExpiringMap.Updated<>(
                u.state(), new Spent(u.answer(), u.state().endsAt()));
    }

    /** As {@code fixed-window-refund.lua}: only the call's own period gets it back. */
    @Override
    public Window refund(Window w, LimitPolicy policy, long mark) {
        if (w == null || w.endsAt() != mark) {
            return w;
        }
        return new Window(Math.max(0, w.spent() - policy.cost()), w.endsAt());
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
        return w.endsAt();
    }
}
