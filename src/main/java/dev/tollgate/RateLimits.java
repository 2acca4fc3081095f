package dev.tollgate;

/**
 * Limits checked from code, by name and client key, with the same limits, budget, circuit breaker and
 * degraded decisions as {@link RateLimited}. In a CDI application {@code @Inject RateLimits}; in plain
 * Java, {@code dev.tollgate.engine.Tollgate} is one.
 *
 * <pre>{@code
 * Decision d = limits.check("orders", customerId);
 * if (!d.allowed()) { ... }          // or limits.enforce("orders", customerId)
 * }</pre>
 */
public interface RateLimits {

    /**
     * Spends one call's cost from {@code clientKey}'s bucket of the limit named {@code limit}, if it holds it.
     *
     * @param limit the name of a configured limit ({@code tollgate.limits.<name>.*})
     * @param clientKey whose bucket: an address, a user name, an API key (the limit's {@code key} setting
     *     plays no part here); cut at 512 characters and hashed before it reaches the store
     * @return the decision; when Redis cannot be asked within the budget, the limit's degraded decision
     *     ({@link Decision#degraded()})
     * @throws TollgateConfigException when no limit of that name is configured
     */
    Decision check(String limit, String clientKey);

    /**
     * The policy of the limit named {@code limit}.
     *
     * @throws TollgateConfigException when no limit of that name is configured
     */
    LimitPolicy policy(String limit);

    /**
     * Like {@link #check}, but throws when the call is denied: a JAX-RS resource then answers {@code 429}
     * (or {@code 503} when the limit fails closed because Redis cannot be asked).
     *
     * @throws RateLimitExceededException when the decision denies the call
     */
    default Decision enforce(String limit, String clientKey) {
        Decision d = check(limit, clientKey);
        if (!d.allowed()) {
            throw new RateLimitExceededException(policy(limit), d);
        }
        return d;
    }
}
