package dev.tollgate.cdi;

import dev.tollgate.internal.engine.Admissions;
import dev.tollgate.internal.engine.Cost;
import dev.tollgate.internal.engine.Engine;
import dev.tollgate.internal.ratelimit.Charge;
import dev.tollgate.internal.ratelimit.LimitSpec;
import dev.tollgate.spi.CallerInfo;
import dev.tollgate.spi.PlanResolver;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Vetoed;
import jakarta.enterprise.inject.literal.NamedLiteral;
import java.util.function.Supplier;

/**
 * What {@link Admissions} needs to know of a caller, for the interceptor and the JAX-RS filter alike:
 * whose bucket (the limit's key, or a {@code @RateKey} argument) and which plan's policy (its {@code
 * PlanResolver} bean), per limit; and a {@code @RateCost} argument as a {@link Cost}. A {@code @Singleton}
 * of {@link TollgateBeans}, so injected without a client proxy: every limited request asks it.
 */
@Vetoed
public class Charges {

    private final ClientKeys keys;
    private final Instance<PlanResolver> plans;

    /** @param plans every {@code PlanResolver} bean ({@code @Any}), selected by name */
    Charges(ClientKeys keys, Instance<PlanResolver> plans) {
        this.keys = keys;
        this.plans = plans;
    }

    /**
     * The caller's charges: {@code caller} is asked once, when the first limit is charged.
     *
     * @param clientKey the buckets' client key, or null for each limit's {@code key} setting
     */
    public Admissions.Caller of(Engine tollgate, Supplier<CallerInfo> caller, String clientKey) {
        CallerInfo[] asked = new CallerInfo[1];
        return name -> {
            if (asked[0] == null) {
                asked[0] = caller.get();
            }
            return charge(tollgate, name, asked[0], clientKey);
        };
    }

    private Charge charge(Engine tollgate, String name, CallerInfo caller, String clientKey) {
        LimitSpec limit = tollgate.limit(name);
        String key = clientKey != null ? clientKey : keys.keyFor(limit, caller);
        String plan = tollgate.settings()
                .plans(name)
                .map(p -> plans.select(NamedLiteral.of(p.resolver())).get().plan(caller))
                .orElse(null);
        return tollgate.charge(limit, key, plan);
    }

    /** A {@code @RateCost} argument as a cost: 0 (spend nothing) for a null argument, else its whole value. */
    public static Cost cost(Object arg) {
        if (arg == null) {
            return Cost.of(0);
        }
        if (!(arg instanceof Long || arg instanceof Integer || arg instanceof Short || arg instanceof Byte)) {
            return Cost.bad("a @RateCost argument must be a whole number, but was a "
                    + arg.getClass().getName());
        }
        long v = ((Number) arg).longValue();
        return v < 0 ? Cost.bad("a call's cost must be >= 0, but was " + v) : Cost.of(v);
    }
}
