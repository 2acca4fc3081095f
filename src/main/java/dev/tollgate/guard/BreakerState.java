package dev.tollgate.guard;

/** Whether decisions are being made without asking Redis, for health and metrics. */
public interface BreakerState {

    /** True while some or all checks get their degraded decision without asking Redis. */
    boolean isOpen();
}
