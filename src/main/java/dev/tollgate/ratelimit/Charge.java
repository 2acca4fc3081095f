package dev.tollgate.ratelimit;

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
 * @param cost what this call spends, &ge; 1; above the policy's capacity the call is denied unasked
 * @param countOn which outcomes stay counted ({@link Admission#settle})
 */
public record Charge(LimitSpec limit, LimitPolicy policy, String plan, String clientKey, long cost, CountOn countOn) {

    public Charge {
        if (limit == null || policy == null || clientKey == null || countOn == null) {
            throw new IllegalArgumentException("limit, policy, clientKey and countOn are required");
        }
        if (cost < 1) {
            throw new IllegalArgumentException("limit '" + limit.name() + "': cost must be >= 1, but was " + cost);
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

    /** Whether the call costs more than the bucket ever holds, and so can never pass. */
    public boolean exceedsCapacity() {
        return cost > policy.capacity();
    }

    /** The policy the store spends under: the chosen policy at this call's cost. */
    LimitPolicy spentPolicy() {
        return cost == policy.cost() ? policy : policy.withCost(cost);
    }

    public String name() {
        return limit.name();
    }
}
