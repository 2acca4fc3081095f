package dev.tollgate;

/**
 * A call charged an estimate up front ({@link RateLimits#estimate}), to be settled at its actual cost
 * when it ends: the difference is given back, or charged on top (a token bucket then goes into debt,
 * so the client waits afterwards). Settle once.
 *
 * <pre>{@code
 * Estimate e = limits.estimate("llm", customerId, 1_000);
 * if (!e.decision().allowed()) { ... }
 * long used = callTheModel();
 * e.settle(used);                    // the bucket ends up 'used' lower, not 1,000
 * }</pre>
 */
public interface Estimate {

    /** The decision on the estimate: a denied call spent nothing and has nothing to settle. */
    Decision decision();

    /** What was spent up front. */
    long estimate();

    /**
     * Settles at {@code actual}: gives back {@code estimate - actual}, or charges {@code actual -
     * estimate} on top, in one atomic script. A token bucket, a fixed window or a calendar quota.
     *
     * @param actual what the call cost, {@link LimitRules#SETTLED_COST_RULE}
     * @return whether the store took the settlement (false: Redis could not be asked, the estimate stays
     *     spent; or a fixed window has ended since)
     * @throws IllegalArgumentException when {@code actual} breaks that rule (nothing changes)
     * @throws IllegalStateException when the call was denied, or is settled already
     */
    boolean settle(long actual);
}
