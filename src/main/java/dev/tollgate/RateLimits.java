package dev.tollgate;

/**
 * Limits checked from code, by name and client key, with the same limits, budget, circuit breaker and
 * degraded decisions as {@link RateLimited}. In a CDI application {@code @Inject RateLimits}; in plain
 * Java, {@code dev.tollgate.internal.engine.Engine} is one.
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
     * Like {@link #check}, for a call that may be a repeat: when the limit keeps idempotency records
     * ({@code tollgate.limits.<name>.idempotency-window}), a call with the same {@code idempotencyKey} as
     * one it admitted within that window is admitted again with that call's decision, and spends nothing
     * (atomically, in the decision's own script). A denied call keeps no record: its retry is decided
     * afresh. Without a window the key plays no part.
     *
     * @param idempotencyKey {@link LimitRules#IDEMPOTENCY_KEY_RULE}, such as a UUID the caller made for
     *     the logical call
     * @throws IllegalArgumentException when the key breaks that rule (nothing is spent)
     * @throws TollgateConfigException when no limit of that name is configured
     */
    Decision check(String limit, String clientKey, String idempotencyKey);

    /**
     * Spends {@code estimate} from {@code clientKey}'s bucket now, to be settled at the call's actual cost
     * when it ends ({@link Estimate#settle}). A token bucket, a fixed window or a calendar quota.
     *
     * @param estimate what the call is expected to cost, from 1 to the most one call may cost
     * @throws IllegalArgumentException when the estimate is below 1
     * @throws TollgateConfigException when no limit of that name is configured
     */
    Estimate estimate(String limit, String clientKey, long estimate);

    /**
     * Like {@link #check}, but when the tokens are not there yet and will have refilled within {@code
     * maxWait}, reserves them at once (later calls queue behind this one) and sleeps on this thread until
     * they are there. A call that would wait longer is denied at once, without sleeping.
     *
     * @param maxWait the longest to wait, &ge; 0; the limit must be a token bucket that refills
     * @return allowed once the tokens are there; denied at once when the wait would exceed {@code maxWait}
     *     (with its retry-after); the degraded decision, at once, when Redis cannot be asked
     * @throws InterruptedException when the thread is interrupted while it waits: the reserved tokens
     *     stay spent
     * @throws IllegalArgumentException when the limit is not a refilling token bucket
     */
    Decision acquire(String limit, String clientKey, java.time.Duration maxWait) throws InterruptedException;

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
