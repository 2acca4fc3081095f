package dev.tollgate.internal.ratelimit;

import dev.tollgate.LimitPolicy;
import java.time.Duration;

/** What the window-store contracts share beyond {@link StoreContract}. */
public abstract class WindowStoreContractSupport extends StoreContract {

    /** {@code limit} calls per {@code window}, each costing 1 (refill tokens play no part in windows). */
    protected static LimitPolicy window(long limit, Duration window) {
        return new LimitPolicy("contract", limit, 1, window, 1);
    }
}
