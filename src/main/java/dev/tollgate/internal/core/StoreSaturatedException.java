package dev.tollgate.internal.core;

import dev.tollgate.StoreUnavailableException;

/**
 * Every connection to the store stayed busy for the whole budget: this server has more calls in
 * flight than connections, which is load, not an outage. The caller makes its degraded decision; a
 * circuit breaker never counts it (an open breaker would shed the load by failing every call).
 */
public final class StoreSaturatedException extends StoreUnavailableException {

    private static final long serialVersionUID = 1L;

    public StoreSaturatedException(String message, Throwable cause) {
        super(message, cause, dev.tollgate.DegradedCause.SATURATED);
    }
}
