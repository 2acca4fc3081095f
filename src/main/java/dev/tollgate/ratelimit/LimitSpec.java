package dev.tollgate.ratelimit;

import dev.tollgate.LimitPolicy;

/**
 * A configured limit: its policy, how it counts, whose bucket a call spends from, and what to decide
 * when the store cannot be asked. A window limit's policy refills its whole capacity once per window.
 */
public record LimitSpec(LimitPolicy policy, Algorithm algorithm, KeySpec key, boolean failOpen) {

    public LimitSpec {
        if (policy == null || algorithm == null || key == null) {
            throw new IllegalArgumentException("policy, algorithm and key are required");
        }
    }

    /** A token bucket. */
    public LimitSpec(LimitPolicy policy, KeySpec key, boolean failOpen) {
        this(policy, Algorithm.TOKEN_BUCKET, key, failOpen);
    }

    public String name() {
        return policy.name();
    }
}
