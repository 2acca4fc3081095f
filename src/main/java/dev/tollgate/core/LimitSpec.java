package dev.tollgate.core;

import dev.tollgate.LimitPolicy;

/**
 * A configured limit: its policy, whose bucket a call spends from, and what to decide when the store
 * cannot be asked.
 */
public record LimitSpec(LimitPolicy policy, KeySpec key, boolean failOpen) {

    public LimitSpec {
        if (policy == null || key == null) {
            throw new IllegalArgumentException("policy and key are required");
        }
    }

    public String name() {
        return policy.name();
    }
}
