package dev.tollgate.guard;

/** Whether calls are being answered without asking Redis, for health, metrics and tests. */
public interface BreakerState {

    /** True while some or all calls get their degraded answer without asking Redis. */
    boolean isOpen();

    /** Whether the calls on {@code storeKey} do (with a Redis Cluster, per master). */
    default boolean isOpen(String storeKey) {
        return isOpen();
    }

    /** How many background probes have been sent so far. */
    long probesSent();
}
