package dev.tollgate.cdi;

import dev.tollgate.CallerInfo;
import dev.tollgate.CountOn;
import dev.tollgate.PlanResolver;
import dev.tollgate.engine.Tollgate;
import dev.tollgate.ratelimit.Charge;
import dev.tollgate.ratelimit.LimitSpec;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.literal.NamedLiteral;
import jakarta.inject.Inject;

/**
 * One call's charge under a limit, for the interceptor and the JAX-RS filter alike: whose bucket (the
 * limit's key, or a {@code @RateKey} argument), which plan's policy (its {@code PlanResolver} bean),
 * what the call costs ({@code @RateCost}, else the configured cost), which outcomes count.
 */
@ApplicationScoped
public class Charges {

    @Inject
    ClientKeys keys;

    @Inject
    @Any
    Instance<PlanResolver> plans;

    /**
     * @param clientKey the bucket's client key, or null for the limit's {@code key} setting
     * @param cost what the call costs, &ge; 1, or null for the configured cost
     */
    public Charge of(Tollgate tollgate, String name, CallerInfo caller, String clientKey, Long cost, CountOn countOn) {
        LimitSpec limit = tollgate.limit(name);
        String key = clientKey != null ? clientKey : keys.keyFor(limit, caller);
        String plan = tollgate.settings()
                .plans(name)
                .map(p -> plans.select(NamedLiteral.of(p.resolver())).get().plan(caller))
                .orElse(null);
        Charge c = tollgate.charge(name, key, plan).counting(countOn);
        return cost == null ? c : c.costing(cost);
    }

    /**
     * A {@code @RateCost} argument as a cost: 0 (spend nothing) for a null argument, else its whole value.
     *
     * @throws IllegalArgumentException when it is negative or not a whole number
     */
    public static Long cost(Object arg) {
        if (arg == null) {
            return 0L;
        }
        if (!(arg instanceof Long || arg instanceof Integer || arg instanceof Short || arg instanceof Byte)) {
            throw new IllegalArgumentException("a @RateCost argument must be a whole number, but was a "
                    + arg.getClass().getName());
        }
        long v = ((Number) arg).longValue();
        if (v < 0) {
            throw new IllegalArgumentException("a call's cost must be >= 0, but was " + v);
        }
        return v;
    }
}
