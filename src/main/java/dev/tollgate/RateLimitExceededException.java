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

    public RateLimitExceededException(LimitPolicy policy, Decision decision) {
        this(policy, decision, policy.cost());
    }

    /** A call costing {@code cost}: above the policy's capacity, it could never pass. */
    public RateLimitExceededException(LimitPolicy policy, Decision decision, long cost) {
        super(
                cost > policy.capacity()
                        ? "the call costs " + cost + ", more than limit '" + policy.name() + "' ever holds ("
                                + policy.capacity() + "): it can never pass"
                        : "rate limit '" + policy.name() + "' exceeded; retry after "
                                + retryText(decision.retryAfter()));
        this.policy = policy;
        this.decision = decision;
        this.cost = cost;
    }

    /** What the denied call would have cost ({@link RateCost}, else the limit's cost). */
    public long cost() {
        return cost;
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
