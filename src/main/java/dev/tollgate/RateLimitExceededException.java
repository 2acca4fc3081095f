package dev.tollgate;

import jakarta.ejb.ApplicationException;
import java.time.Duration;

/**
 * Thrown by the {@link RateLimited} interceptor when a call is denied. A JAX-RS exception mapper turns
 * it into the same HTTP 429 that the request filter sends.
 *
 * <p>An EJB application exception: it reaches the caller as it is (not wrapped in an {@code
 * EJBException}) and does not mark the caller's transaction for rollback, since the method never ran.
 */
@ApplicationException(rollback = false)
public class RateLimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient LimitPolicy policy;
    private final transient Decision decision;
    private final long cost;
    private final long largestCost;

    public RateLimitExceededException(LimitPolicy policy, Decision decision) {
        this(policy, decision, policy.cost());
    }

    /** A call costing {@code cost}: above the policy's capacity, it could never pass. */
    public RateLimitExceededException(LimitPolicy policy, Decision decision, long cost) {
        this(policy, decision, cost, policy.capacity());
    }

    /**
     * A call costing {@code cost}, of which one call may cost at most {@code largestCost} under the
     * limit (its capacity, and for a sliding window at most 1,000): above it, the call could never pass.
     */
    public RateLimitExceededException(LimitPolicy policy, Decision decision, long cost, long largestCost) {
        super(
                cost > largestCost
                        ? "the call costs " + cost + ", " + tooCostly(policy, largestCost) + ": it can never pass"
                        : "rate limit '" + policy.name() + "' exceeded; retry after "
                                + retryText(decision.retryAfter()));
        this.policy = policy;
        this.decision = decision;
        this.cost = cost;
        this.largestCost = largestCost;
    }

    /**
     * What makes a cost above {@code largestCost} impossible under {@code policy}: {@code more than limit
     * 'x' ever holds (100)}, or, below the capacity, {@code more than limit 'x' takes in one call (1000)}.
     * The JAX-RS rejection's detail says the same.
     */
    public static String tooCostly(LimitPolicy policy, long largestCost) {
        return largestCost < policy.capacity()
                ? "more than limit '" + policy.name() + "' takes in one call (" + largestCost + ")"
                : "more than limit '" + policy.name() + "' ever holds (" + policy.capacity() + ")";
    }

    /** What the denied call would have cost ({@link RateCost}, else the limit's cost). */
    public long cost() {
        return cost;
    }

    /**
     * The most one call may cost under the limit: its capacity, and for a sliding window at most 1,000.
     * A call costing more ({@link #cost()}) can never pass, and is denied without spending anything.
     */
    public long largestCost() {
        return largestCost;
    }

    /** Whether the call costs more than the limit lets one call cost, and so can never pass. */
    public boolean neverPasses() {
        return cost > largestCost;
    }

    /** The limit that denied the call. */
    public LimitPolicy policy() {
        return policy;
    }

    /** The denying decision, with remaining tokens and retry-after. */
    public Decision decision() {
        return decision;
    }

    /** The limit's name. */
    public String limitName() {
        return policy.name();
    }

    /** How long until the call could pass at the earliest; {@link Decision#NEVER} for an exhausted quota. */
    public Duration retryAfter() {
        return decision.retryAfter();
    }

    private static String retryText(Duration d) {
        return d.equals(Decision.NEVER) ? "never (the quota does not refill)" : d.toMillis() + " ms";
    }
}
