package dev.tollgate.internal.ratelimit;

import dev.tollgate.Decision;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The answer for one call under all of its limits, all or nothing: either every limit allowed it and
 * the tokens stay spent (until {@link #refund()}), or at least one denied it and nothing stays spent.
 * Built by {@link RateLimiter#admit}.
 */
public final class Admission {

    private final List<Charged> charged;
    private final RateLimiter limiter;
    private final AtomicBoolean refunded = new AtomicBoolean();
    private final AtomicBoolean settledCost = new AtomicBoolean();

    /** @param charged unmodifiable, and no longer changed by its maker: kept as it is, not copied */
    Admission(List<Charged> charged, RateLimiter limiter) {
        this.charged = charged;
        this.limiter = limiter;
    }

    /** Every limit's part, in the order of the charges. */
    public List<Charged> charged() {
        return charged;
    }

    /** Whether every limit allowed the call. */
    public boolean allowed() {
        for (Charged c : charged) {
            if (!c.decision().allowed()) {
                return false;
            }
        }
        return true;
    }

    /**
     * The limit to name in a rejection: of those that denied the call, a degraded one (Redis could not
     * be asked: the call is refused for that reason, not the client's quota) first, else the one whose
     * retry-after is the longest, so a client that waits that long is not denied again by another.
     */
    public Optional<Charged> denied() {
        return charged.stream()
                .filter(c -> !c.decision().allowed())
                .max(Comparator.comparing((Charged c) -> c.decision().degraded())
                        .thenComparing(c -> c.decision().retryAfter()));
    }

    /** The longest wait for reserved tokens; zero when the call does not wait. */
    public Duration delay() {
        return charged.stream()
                .map(Charged::delay)
                .max(Comparator.naturalOrder())
                .orElse(Duration.ZERO);
    }

    /** The charged limit whose wait is {@link #delay()}. */
    public Optional<Charged> longestWait() {
        Charged longest = null; // the first of the longest, as Stream.max would pick
        for (Charged c : charged) {
            if (!c.delay().isZero() && (longest == null || c.delay().compareTo(longest.delay()) > 0)) {
                longest = c;
            }
        }
        return Optional.ofNullable(longest);
    }

    /**
     * Gives back every token this admission took, once (a second call does nothing): for a call whose
     * outcome is not counted. Each limit's refund is one atomic script; a refund Redis cannot take is
     * lost (the tokens stay spent) and counted, never retried.
     */
    public void refund() {
        if (refunded.compareAndSet(false, true)) {
            limiter.refund(charged);
        }
    }

    /**
     * The call has ended with {@code failed}: gives back the tokens of every limit that does not count
     * that outcome ({@link dev.tollgate.CountOn}); the others stay spent. Once: a second call, or one
     * after {@link #refund()}, does nothing.
     */
    public void settle(boolean failed) {
        if (!allowed() || countsEach(failed)) {
            return;
        }
        if (refunded.compareAndSet(false, true)) {
            limiter.refund(charged.stream()
                    .filter(c -> !c.charge().countOn().counts(failed))
                    .toList());
        }
    }

    /** Whether every limit counts a call that ended with {@code failed}: nothing to give back. */
    private boolean countsEach(boolean failed) {
        for (Charged c : charged) {
            if (!c.charge().countOn().counts(failed)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The call has ended with {@code failed} and cost {@code actual} per limit name: like {@link
     * #settle(boolean)}, and each limit that counts the outcome, spent, and has an actual cost is settled
     * at it ({@link RateLimiter#settle}); a limit without one keeps its estimate. Once, and nothing after
     * {@link #refund()}.
     *
     * @return whether the store took every settlement (false: one stays at its estimate)
     * @throws IllegalArgumentException when an actual cost breaks {@link dev.tollgate.LimitRules#SETTLED_COST_RULE}
     */
    public boolean settle(boolean failed, Function<String, OptionalLong> actual) {
        boolean before = refunded.get();
        settle(failed);
        if (before || !allowed() || !settledCost.compareAndSet(false, true)) {
            return false;
        }
        boolean taken = true;
        for (Charged c : charged) {
            // a sliding window cannot settle: it keeps its estimate
            OptionalLong cost = actual.apply(c.charge().name());
            if (cost.isPresent()
                    && c.spent()
                    && c.charge().countOn().counts(failed)
                    && c.charge().limit().algorithm() != Algorithm.SLIDING_WINDOW) {
                taken &= limiter.settle(c, cost.getAsLong());
            }
        }
        return taken;
    }

    /** One limit's decision, for callers with a single charge. */
    public Decision decision(int i) {
        return charged.get(i).decision();
    }
}
