package dev.tollgate.internal.ratelimit;

import dev.tollgate.CountOn;
import dev.tollgate.LimitPolicy;

/**
 * One limit applied to one call: the limit (its algorithm, degraded decision, keys), the policy this
 * call is spent under (the limit's own, or its caller's plan's), whose bucket, and what the call costs.
 *
 * @param limit the configured limit
 * @param policy the policy chosen for this call; its cost is replaced by {@code cost}
 * @param plan the plan that chose the policy, or null for the limit's own
 * @param clientKey whose bucket
 * @param cost what this call spends, &ge; 1, any size: above what one call may cost under the policy
 *     ({@link #largestCost()}) the call is denied without asking the store ({@link #neverPasses()})
 * @param countOn which outcomes stay counted ({@link Admission#settle})
 * @throws IllegalArgumentException when the policy's capacity does not fit the limit's algorithm (a plan's
 *     policy is a configured limit's of the same algorithm, so it always fits)
 */
public record Charge(LimitSpec limit, LimitPolicy policy, String plan, String clientKey, long cost, CountOn countOn) {

    public Charge {
        if (limit == null || policy == null || clientKey == null || countOn == null) {
            throw new IllegalArgumentException("limit, policy, clientKey and countOn are required");
        }
        if (cost < 1) {
            throw new IllegalArgumentException("limit '" + limit.name() + "': cost must be >= 1, but was " + cost);
        }
        // The limit's own policy was checked against its algorithm when the limit was built.
        if (policy != limit.policy()) {
            LimitSpec.fits(policy, limit.algorithm());
        }
    }

    /** The limit under its own policy and cost. */
    public static Charge of(LimitSpec limit, String clientKey) {
        return new Charge(limit, limit.policy(), null, clientKey, limit.policy().cost(), CountOn.ALWAYS);
    }

    /** This charge at another cost. */
    public Charge costing(long newCost) {
        return new Charge(limit, policy, plan, clientKey, newCost, countOn);
    }

    /** This charge under {@code plan}'s policy. */
    public Charge under(String newPlan, LimitPolicy newPolicy) {
        return new Charge(limit, newPolicy, newPlan, clientKey, cost, countOn);
    }

    /** This charge counting only {@code outcome}s. */
    public Charge counting(CountOn outcome) {
        return new Charge(limit, policy, plan, clientKey, cost, outcome);
    }

    /**
     * The most this call may cost: the policy's capacity, and for a sliding window at most 1,000 ({@link
     * Algorithm#largestCost(LimitPolicy)}, the one statement of what each algorithm's script takes).
     */
    public long largestCost() {
        return limit.algorithm().largestCost(policy);
    }

    /**
     * Whether the call costs more than {@link #largestCost()}, and so can never pass: it is denied
     * without asking the store (whose script would refuse its arguments), never admitted.
     */
    public boolean neverPasses() {
        return cost > largestCost();
    }

    /** Whether the call is spent under the limit's own policy and cost. */
    boolean own() {
        return plan == null && cost == limit.policy().cost();
    }

    /** The policy the store spends under: the chosen policy at this call's cost. */
    LimitPolicy spentPolicy() {
        return cost == policy.cost() ? policy : policy.withCost(cost);
    }

    public String name() {
        return limit.name();
    }
}
