package dev.tollgate.internal.guard;

import java.util.Optional;

/** Whether calls are being answered without asking Redis, for health, metrics and tests. */
public interface BreakerState {

    /** True while some or all calls get their degraded answer without asking Redis. */
    boolean isOpen();

    /** Whether the calls on {@code storeKey} do (with a Redis Cluster, per master). */
    default boolean isOpen(String storeKey) {
        return isOpen();
    }

    /** While Redis refuses Tollgate's credentials or permissions: what it said (never a secret). */
    default Optional<String> authFailure() {
        return Optional.empty();
    }

    /** How many background probes have been sent so far. */
    long probesSent();
}
