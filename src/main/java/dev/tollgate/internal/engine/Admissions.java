package dev.tollgate.internal.engine;

import dev.tollgate.ClientKeyTooLongException;
import dev.tollgate.CountOn;
import dev.tollgate.Decision;
import dev.tollgate.internal.config.HttpSettings;
import dev.tollgate.internal.config.MethodLimits;
import dev.tollgate.internal.ratelimit.Admission;
import dev.tollgate.internal.ratelimit.Charge;
import dev.tollgate.internal.ratelimit.Charged;
import dev.tollgate.internal.ratelimit.KeySpec;
import dev.tollgate.internal.ratelimit.Repeat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one admission pipeline, which the JAX-RS filter and the CDI interceptor both call: which limits
 * and at what cost (the method's limits, and for an HTTP request {@code tollgate.http.limits}), their
 * charges, the admission, the wait; the {@link Outcome} says how it ended, and an admitted call is
 * settled by its adapter once its outcome is known. An adapter says only who the caller is and what
 * the call costs, and translates the outcome.
 */
public final class Admissions {

    /** Whose bucket and which plan, per limit: what an adapter knows of the caller. */
    @FunctionalInterface
    public interface Caller {

        /** The call's charge under the limit named {@code limit}, at the configured cost, counting every call. */
        Charge charge(String limit);
    }

    private record Planned(String limit, Cost cost, CountOn countOn) {

        Charge charge(Caller caller) {
            Charge c = caller.charge(limit).counting(countOn);
            return cost instanceof Cost.Of of ? c.costing(of.value()) : c;
        }
    }

    private final Engine tollgate;

    public Admissions(Engine tollgate) {
        this.tollgate = tollgate;
    }

    /**
     * An HTTP request's admission: {@code tollgate.http.limits}, and the resource method's limits when
     * its cost can be read before it runs (else they are left to the interceptor). A request thread
     * waits only where the deployment allows it ({@code tollgate.http.allow-wait}).
     */
    public Outcome request(MethodLimits method, Cost cost, Caller caller) {
        return request(method, cost, caller, () -> IdempotencyKey.NONE);
    }

    /**
     * Like {@link #request(MethodLimits, Cost, Caller)}, for a request that may carry an idempotency key:
     * the limits that keep idempotency records answer its repeats as they answered it ({@link
     * dev.tollgate.internal.ratelimit.RateLimiter#admit(List, Duration,
     * dev.tollgate.internal.ratelimit.Repeat)}); a key that breaks its rule refuses the request when one
     * of them would read it, before anything is spent.
     *
     * @param idempotency the request's key, asked only when one of its limits keeps records (reading the
     *     header through the JAX-RS runtime was a twentieth of the filter's time in a profile)
     */
    public Outcome request(MethodLimits method, Cost cost, Caller caller, Supplier<IdempotencyKey> idempotency) {
        if (free(method)) {
            return Outcome.FREE;
        }
        HttpSettings http = tollgate.settings().http();
        if (cost instanceof Cost.Bad bad) {
            return new Outcome.BadCost(bad.problem());
        }
        boolean here = !(cost instanceof Cost.Unread);
        List<Planned> plan = new ArrayList<>();
        for (String name : http.globalLimits()) {
            if (!here || !method.limits().contains(name)) {
                plan.add(new Planned(name, Cost.CONFIGURED, CountOn.ALWAYS));
            }
        }
        if (here) {
            plan.addAll(ownLimits(method, cost, name -> false));
        }
        boolean mayWait = method.waits() && http.allowWait();
        return admit(
                plan,
                caller,
                mayWait ? method.maxWait() : Duration.ZERO,
                here ? method.limits() : List.of(),
                idempotency);
    }

    /**
     * Whether an HTTP request to a method of these limits is under none ({@link Outcome#FREE}): neither
     * the method's nor {@code tollgate.http.limits}. An adapter may ask first, and read nothing more of a
     * free request.
     */
    public boolean free(MethodLimits method) {
        return method.limits().isEmpty()
                && tollgate.settings().http().globalLimits().isEmpty();
    }

    /**
     * A business method's admission: its limits, but those {@code checked} already (by the filter, for
     * this request).
     */
    public Outcome call(MethodLimits method, Cost cost, Caller caller, Predicate<String> checked) {
        if (cost instanceof Cost.Bad bad) {
            return new Outcome.BadCost(bad.problem());
        }
        List<Planned> plan = ownLimits(method, cost, checked);
        if (plan.isEmpty()) {
            return Outcome.FREE;
        }
        return admit(
                plan, caller, method.waits() ? method.maxWait() : Duration.ZERO, List.of(), () -> IdempotencyKey.NONE);
    }

    /** The method's limits at its cost, none when it costs 0. */
    private static List<Planned> ownLimits(MethodLimits method, Cost cost, Predicate<String> checked) {
        if (cost instanceof Cost.Of of && of.value() == 0) {
            return List.of();
        }
        List<Planned> plan = new ArrayList<>(method.limits().size());
        for (String name : method.limits()) {
            if (!checked.test(name)) {
                plan.add(new Planned(name, cost, method.countOn()));
            }
        }
        return plan;
    }

    private Outcome admit(
            List<Planned> plan,
            Caller caller,
            Duration maxWait,
            List<String> applied,
            Supplier<IdempotencyKey> idempotency) {
        Admission admission;
        try {
            List<Charge> charges = new ArrayList<>(plan.size());
            boolean keepsRecords = false;
            for (Planned p : plan) {
                Charge c = p.charge(caller);
                charges.add(c);
                keepsRecords |= c.limit().idempotencyWindow() != null;
            }
            Repeat repeat = null;
            IdempotencyKey key = keepsRecords ? idempotency.get() : IdempotencyKey.NONE;
            if (key.present()) {
                Optional<String> problem = key.problem();
                if (problem.isPresent()) {
                    return new Outcome.BadIdempotencyKey(problem.get());
                }
                repeat = key.repeat();
            }
            admission = tollgate.limiter().admit(charges, maxWait, repeat);
        } catch (ClientKeyTooLongException e) {
            return new Outcome.KeyTooLong(e, headerKey(e.limitName()));
        }
        if (!admission.allowed()) {
            return new Outcome.Denied(admission);
        }
        Optional<Charged> longest = admission.longestWait();
        if (longest.isPresent()) {
            Charged w = longest.get();
            try {
                tollgate.sleeper().sleep(w.delay());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                Decision refused = new Decision(false, 0, w.delay(), Duration.ZERO, true);
                return new Outcome.Interrupted(w.charge().policy(), refused);
            }
        }
        return new Outcome.Admitted(admission, applied);
    }

    private boolean headerKey(String limit) {
        return tollgate.settings()
                .limit(limit)
                .map(l -> l.key() instanceof KeySpec.Header)
                .orElse(false);
    }
}
