package dev.tollgate;

import java.util.concurrent.Callable;

/**
 * Concurrency limits used from code, by name and client key, with the same settings, budget, circuit
 * breaker and degraded decisions as {@link ConcurrencyLimited}. In a CDI application {@code @Inject
 * ConcurrencyLimits}; in plain Java, {@code dev.tollgate.internal.engine.Engine} is one.
 *
 * <pre>{@code
 * String report = limits.run("reports", customerId, () -> reports.build(customerId));
 * }</pre>
 */
public interface ConcurrencyLimits {

    /**
     * Takes one of the slots of the concurrency limit named {@code limit} for {@code clientKey}, if one
     * is free; the permit holds it until closed.
     *
     * @param limit the name of a configured concurrency limit ({@code tollgate.concurrency.<name>.*})
     * @param clientKey whose slots: an address, a user name; cut at 512 characters and hashed before it
     *     reaches the store
     * @return the permit; when Redis cannot be asked within the budget, the limit's degraded decision
     * @throws TollgateConfigException when no concurrency limit of that name is configured
     */
    Permit tryEnter(String limit, String clientKey);

    /**
     * Like {@link #tryEnter}, but throws when the call is refused.
     *
     * @throws ConcurrencyLimitExceededException when every slot is taken (or the store cannot be asked
     *     and the limit fails closed)
     */
    default Permit enter(String limit, String clientKey) {
        Permit p = tryEnter(limit, clientKey);
        if (!p.admitted()) {
            throw new ConcurrencyLimitExceededException(p);
        }
        return p;
    }

    /** Runs {@code call} in one of the limit's slots, freeing it after; throws when refused. */
    default <T> T run(String limit, String clientKey, Callable<T> call) throws Exception {
        try (Permit p = enter(limit, clientKey)) {
            return call.call();
        }
    }
}
